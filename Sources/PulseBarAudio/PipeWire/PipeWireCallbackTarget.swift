/// An object libpipewire's callbacks find through their `data`: an unretained pointer to it.
/// It must outlive the listeners it registers, and remove their hooks before it is freed.
protocol PipeWireCallbackTarget: AnyObject {}

extension PipeWireCallbackTarget {
  /// The `data` its callbacks get.
  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// The object behind a callback's `data`.
  static func from(_ data: UnsafeMutableRawPointer?) -> Self {
    Unmanaged<Self>.fromOpaque(data!).takeUnretainedValue()
  }
}

extension UnsafeMutablePointer {
  /// One `Pointee` on the heap, set to `value`: a listener's hook or event table, which
  /// libpipewire keeps a pointer to; its owner deallocates it once the listener is removed.
  static func allocate(initializedTo value: Pointee) -> Self {
    let pointer = allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }
}
