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
  /// A descriptor the engine polls; when readable it delivers the current frame again (without
  /// advancing), and the delivery drains it. -1 (the default) for none.
  var wakeDescriptor: FileDescriptor? { get }
}

extension FrameDelivery {
  package var wakeDescriptor: FileDescriptor? { nil }
}

/// Writes one consumer's changed lines to a descriptor (stdout), blocking.
///
/// Blocking is what a pipeline reader expects from stdout; the socket server
/// is the path that never blocks. A closed reader (EPIPE) stops the engine.
package final class DescriptorDelivery: FrameDelivery {
  private let key: ConsumerKey
  private let descriptor: FileDescriptor
  package let wantedKeys: [ConsumerKey]
  package let keysVersion: UInt64 = 0

  package init(key: ConsumerKey, descriptor: FileDescriptor = .standardOutput) {
    self.key = key
    self.descriptor = descriptor
    wantedKeys = [key]
  }

  package func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
    guard let index = pipeline.consumerIndex(of: key), let line = pipeline.changedLine(index)
    else { return true }
    return line.withUnsafeBytes { (try? descriptor.writeAll($0)) != nil }
  }
}
