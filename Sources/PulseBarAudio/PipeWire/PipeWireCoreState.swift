import Glibc
import PulseBarCore

/// The PipeWire core while connected, and the round trip awaited: the first says every
/// global is listed (and bound), the second that the bound nodes' states and the metadata
/// have come too, so the core hears of a connection with the graph whole, amid sound if sound
/// plays.
struct PipeWireCoreState {
  var core: OpaquePointer?
  var awaitedSync: Int32?
  var roundTrips = 0
  /// The server hung up (core error on the connection): told to the capture core soon, outside
  /// libpipewire's own dispatch.
  var hungUp = false
}
