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
  /// A reload's plan, decided once (``ReloadPlan``), on the engine thread before the first
  /// frame of the new pipeline. By default its configuration goes to
  /// ``configurationChanged(_:)``; stdout and the terminal take ``ReloadPlan/outputKey``.
  func reload(_ plan: ReloadPlan)
}

extension FrameDelivery {
  package var wakeDescriptor: FileDescriptor? { nil }
  package var nextDeadline: Double? { nil }
  package func service(now: Double) -> Bool { false }
  package func configurationChanged(_ configuration: Configuration) {}
  package func reload(_ plan: ReloadPlan) { configurationChanged(plan.applied) }
}
