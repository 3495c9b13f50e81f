internal import CSystemd
import Glibc
import PulseBarSystem

/// One connection to the session bus: an `sd_bus *`, owned and closed here.
///
/// Not thread-safe, as sd-bus is not: confined to one thread, which debug builds assert at
/// every call: the first that uses it (`pulsebar ctl`'s main thread), or the one it is handed
/// to with ``moveToCurrentThread()`` (the watcher's thread, once the daemon's made it).
final class BusConnection {
  let bus: OpaquePointer
  private var confinement = ThreadConfinement()

  /// Opens the user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else
  /// `$XDG_RUNTIME_DIR/bus`). Throws when there is none.
  init() throws(BusError) {
    var bus: OpaquePointer?
    let result = sd_bus_open_user(&bus)
    guard result >= 0, let bus else { throw Self.noBus(result) }
    self.bus = bus
  }

  deinit { sd_bus_flush_close_unref(bus) }

  /// Stops a debug build when called off the connection's thread.
  func assertConfined(file: StaticString = #fileID, line: UInt = #line) {
    confinement.check("BusConnection", file: file, line: line)
  }

  /// Hands the connection to the calling thread: from now on only it may use it.
  func moveToCurrentThread() {
    confinement = ThreadConfinement()
    confinement.check("BusConnection")
  }

  /// Why there is no session bus, in the words of where sd-bus looked.
  private static func noBus(_ code: Int32) -> BusError {
    let reason = String(cString: strerror(-code))
    if let address = environment("DBUS_SESSION_BUS_ADDRESS") {
      return BusError("no session bus at \(address): \(reason)")
    }
    if let runtime = environment("XDG_RUNTIME_DIR") {
      return BusError(
        "no session bus (DBUS_SESSION_BUS_ADDRESS is unset; \(runtime)/bus: \(reason))")
    }
    return BusError("no session bus (neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set)")
  }

  /// The descriptor to poll, what to poll it for, and until when (`nil`: no deadline).
  var pollState: (descriptor: FileDescriptor, events: PollSet.Events, deadline: UInt64?) {
    assertConfined()
    let descriptor = FileDescriptor(rawValue: sd_bus_get_fd(bus))
    let events = PollSet.Events(rawValue: Int16(truncatingIfNeeded: max(0, sd_bus_get_events(bus))))
    var usec: UInt64 = 0
    let deadline: UInt64? = sd_bus_get_timeout(bus, &usec) >= 0 && usec != UInt64.max ? usec : nil
    return (descriptor, events, deadline.map { $0 &* 1000 })
  }

  /// Handles everything queued (replies, signals, writes); throws when the connection is lost.
  func processAll() throws(BusError) {
    assertConfined()
    while true {
      let result = sd_bus_process(bus, nil)
      if result < 0 { throw BusError("session bus", code: result) }
      if result == 0 { return }
    }
  }

  /// Adds a match rule; `handler` gets every matching signal with `context`.
  /// Returns the match's slot: ``removeMatch(_:)`` ends the match (the bus stops routing those
  /// signals here), and must be called before the connection goes (the slot holds the bus).
  func addMatch(
    _ rule: String, context: UnsafeMutableRawPointer, handler: sd_bus_message_handler_t
  ) throws(BusError) -> OpaquePointer? {
    assertConfined()
    var slot: OpaquePointer?
    let result = sd_bus_add_match_async(bus, &slot, rule, handler, nil, context)
    if result < 0 { throw BusError("match \(rule)", code: result) }
    return slot
  }

  /// Adds a match rule for the connection's whole life: its slot is the bus's own (floating),
  /// freed with the bus. A slot handed out and never unreferenced holds a reference to the bus,
  /// which then outlived ``deinit`` (valgrind: the `sd_bus_new` of start-up definitely lost).
  func addLastingMatch(
    _ rule: String, context: UnsafeMutableRawPointer, handler: sd_bus_message_handler_t
  ) throws(BusError) {
    assertConfined()
    let result = sd_bus_add_match_async(bus, nil, rule, handler, nil, context)
    if result < 0 { throw BusError("match \(rule)", code: result) }
  }

  /// Ends a match ``addMatch(_:context:handler:)`` made.
  func removeMatch(_ slot: OpaquePointer) {
    assertConfined()
    sd_bus_slot_unref(slot)
  }

  /// A method call with string arguments.
  func methodCall(
    destination: String, path: String, interface: String, member: String,
    arguments: [String] = []
  ) throws(BusError) -> BusMessage {
    assertConfined()
    var message: OpaquePointer?
    let result = sd_bus_message_new_method_call(
      bus, &message, destination, path, interface, member)
    guard result >= 0, let message else { throw BusError(member, code: result) }
    let call = BusMessage(adopting: message)
    for argument in arguments {
      let appended = argument.withCString {
        sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0)
      }
      if appended < 0 { throw BusError(member, code: appended) }
    }
    return call
  }

  /// Sends `call`; `handler` gets the reply with `context` (an error reply after
  /// `timeoutMicroseconds`; 0 is sd-bus's default, 25 s). Returns the call's cookie, which
  /// the reply's ``BusMessage/replyCookie`` names.
  @discardableResult
  func callAsync(
    _ call: BusMessage, context: UnsafeMutableRawPointer?, timeoutMicroseconds: UInt64 = 0,
    handler: sd_bus_message_handler_t
  ) throws(BusError) -> UInt64 {
    assertConfined()
    let result = sd_bus_call_async(
      bus, nil, call.message, handler, context, timeoutMicroseconds)
    if result < 0 { throw BusError("call", code: result) }
    var cookie: UInt64 = 0
    _ = sd_bus_message_get_cookie(call.message, &cookie)
    return cookie
  }

  /// Sends `call` and waits for its reply (`pulsebar ctl` only: never on the watcher thread).
  func call(_ call: BusMessage, timeoutSeconds: Double = 5) throws(BusError) -> BusMessage {
    assertConfined()
    var error = sd_bus_error()
    defer { sd_bus_error_free(&error) }
    var reply: OpaquePointer?
    let result = sd_bus_call(bus, call.message, UInt64(timeoutSeconds * 1e6), &error, &reply)
    guard result >= 0, let reply else {
      if result == -ETIMEDOUT {
        throw BusError(
          "no reply in \(Int((timeoutSeconds * 1000).rounded())) ms (the call was sent)")
      }
      let text = error.message.map { String(cString: $0) } ?? String(cString: strerror(-result))
      throw BusError(text)
    }
    return BusMessage(adopting: reply)
  }
}
