import PulseBarCore
import PulseBarSystem

/// Writes one consumer's changed lines to a descriptor (stdout), blocking.
///
/// Blocking is what a pipeline reader expects from stdout; the socket server
/// is the path that never blocks. A failed write stops the engine and is kept in
/// ``failure``: a closed reader (EPIPE) is the normal end of a pipeline, any other error
/// (stdout closed, a full disk) is the run's failure.
/// Its consumer is the config's format and bar count, so it follows a reload
/// (``configurationChanged(_:)``); the offline run makes one and never reloads.
package final class DescriptorDelivery: FrameDelivery {
  private var key: ConsumerKey
  private let descriptor: FileDescriptor
  package private(set) var wantedKeys: [ConsumerKey]
  package private(set) var keysVersion: UInt64 = 0
  /// Why the last write failed, once one has.
  package private(set) var failure: Errno?

  package init(key: ConsumerKey, descriptor: FileDescriptor = .standardOutput) {
    self.key = key
    self.descriptor = descriptor
    wantedKeys = [key]
  }

  /// Takes a reload's new format and bar count (``ReloadPlan/outputKey``) as planned.
  package func reload(_ plan: ReloadPlan) {
    guard let newKey = plan.outputKey else { return }
    key = newKey
    wantedKeys = [newKey]
    keysVersion &+= 1
  }

  package func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
    guard let index = pipeline.consumerIndex(of: key), let line = pipeline.changedLine(index)
    else { return true }
    let result = line.withUnsafeBytes { bytes in
      Result { () throws(Errno) in try descriptor.writeAll(bytes) }
    }
    guard case .failure(let error) = result else { return true }
    failure = error
    return false
  }

  /// The exit status a run that wrote here ends with: 1, after one line through `log`, when a
  /// write failed for another reason than a reader that went away; else `status`.
  package func exitStatus(_ status: Int32, log: (String) -> Void) -> Int32 {
    guard let failure, failure != .brokenPipe else { return status }
    log("cannot write to stdout: \(failure)")
    return 1
  }
}
