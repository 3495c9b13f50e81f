/// An object that libpulse callbacks find through their `userdata`: an unretained pointer to
/// it, so whoever registers the callbacks keeps the object alive until they are cleared (or
/// the mainloop is freed).
protocol PulseCallbackTarget: AnyObject {}

extension PulseCallbackTarget {
  /// The `userdata` its callbacks get.
  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// The object behind a callback's `userdata`.
  static func from(_ userdata: UnsafeMutableRawPointer?) -> Self {
    Unmanaged<Self>.fromOpaque(userdata!).takeUnretainedValue()
  }
}
