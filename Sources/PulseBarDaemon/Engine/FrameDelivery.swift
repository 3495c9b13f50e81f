import PulseBarCore
import PulseBarSystem

/// Somewhere frames go: stdout, the socket server, the terminal view.
///
/// The engine registers the union of every delivery's `wantedKeys` with the
/// pipeline (so each distinct layout is banded and each (format, bars)
/// rendered once per frame), renders them, then calls `deliver` once per frame;
/// a delivery reads `pipeline.changedLine(_:)`.
package protocol FrameDelivery: AnyObject {
  /// The consumers this delivery reads.
  var wantedKeys: [ConsumerKey] { get }
  /// Changes whenever `wantedKeys` does (checked every frame; keep it cheap).
  var keysVersion: UInt64 { get }
  /// Hands over the frame. Returns false when the engine should stop (stdout closed, user quit).
  func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool
  /// A descriptor the engine polls (`nil`, the default, for none); when it is readable, or
  /// ``nextDeadline`` has passed, the engine calls ``service(now:)``.
  var wakeDescriptor: FileDescriptor? { get }
  /// When the delivery next needs ``service(now:)`` with nothing readable, in monotonic
  /// seconds (`nil`, the default: never).
  var nextDeadline: Double? { get }
  /// Handles what is ready and what is due (engine thread). True when the engine should
  /// deliver the current frame again, without advancing (new consumers want their first line).
  func service(now: Double) -> Bool
  /// A reload replaced the configuration (already validated): a delivery that follows the
  /// config's format and bar count changes its keys (and bumps ``keysVersion``). Called on the
  /// engine thread before the first frame of the new pipeline. Does nothing by default.
  func configurationChanged(_ configuration: Configuration)
}

extension FrameDelivery {
  package var wakeDescriptor: FileDescriptor? { nil }
  package var nextDeadline: Double? { nil }
  package func service(now: Double) -> Bool { false }
  package func configurationChanged(_ configuration: Configuration) {}
}

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

  package func configurationChanged(_ configuration: Configuration) {
    let newKey = ConsumerKey(format: configuration.format, bars: configuration.bars)
    guard newKey != key else { return }
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
