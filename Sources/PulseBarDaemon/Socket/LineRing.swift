/// A bounded FIFO of lines that drops the oldest when full.
///
/// Slots are byte arrays that keep their capacity, so once each slot has held a line as long
/// as the ones being published, pushing allocates nothing. Capacity is a power of two and
/// indices wrap with a mask, as NIO's `CircularBuffer`.
package struct LineRing: Sendable {
  private var slots: ContiguousArray<[UInt8]>
  private var head = 0
  package private(set) var count = 0

  /// A ring of `capacity` lines (rounded up to a power of two), each slot reserving
  /// `reservedBytes`.
  package init(capacity: Int, reservedBytes: Int = 0) {
    var size = 1
    while size < max(1, capacity) { size <<= 1 }
    slots = ContiguousArray(repeating: [], count: size)
    if reservedBytes > 0 {
      for index in slots.indices { slots[index].reserveCapacity(reservedBytes) }
    }
  }

  package var capacity: Int { slots.count }
  package var isEmpty: Bool { count == 0 }
  package var isFull: Bool { count == slots.count }

  /// Appends a copy of `line`; returns true when the oldest line was dropped to make room.
  @discardableResult
  package mutating func push(_ line: UnsafeRawBufferPointer) -> Bool {
    let mask = slots.count - 1
    var dropped = false
    if count == slots.count {
      head = (head + 1) & mask
      count -= 1
      dropped = true
    }
    let index = (head + count) & mask
    slots[index].removeAll(keepingCapacity: true)
    slots[index].append(contentsOf: line)
    count += 1
    return dropped
  }

  /// Appends a copy of `line` (see ``push(_:)-(UnsafeRawBufferPointer)``).
  @discardableResult
  package mutating func push(_ line: [UInt8]) -> Bool {
    line.withUnsafeBytes { push($0) }
  }

  /// Calls `body` with the oldest line's bytes; `nil` when empty.
  package func withFirst<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
    guard count > 0 else { return nil }
    return try slots[head].withUnsafeBytes(body)
  }

  /// The oldest line, copied (tests and diagnostics).
  package var first: [UInt8]? { count > 0 ? slots[head] : nil }

  /// Drops the oldest line.
  package mutating func removeFirst() {
    precondition(count > 0, "removeFirst on an empty LineRing")
    head = (head + 1) & (slots.count - 1)
    count -= 1
  }

  /// Drops every line. With `keepingCapacity` false the slots give their memory back too:
  /// for a client that leaves, whose slot the next client may use with shorter lines.
  package mutating func removeAll(keepingCapacity: Bool = true) {
    head = 0
    count = 0
    if !keepingCapacity { slots = ContiguousArray(repeating: [], count: slots.count) }
  }

  /// Bytes the slots hold reserved (tests and diagnostics).
  package var reservedBytes: Int { slots.reduce(0) { $0 + $1.capacity } }
}
