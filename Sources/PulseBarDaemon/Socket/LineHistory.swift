/// One subscription's last lines, each with a sequence number: what its clients read from.
///
/// Every client keeps a cursor (the sequence number of the next line it is to get); a frame's
/// line is copied in once, whatever the number of clients. A client whose cursor falls behind
/// the oldest line kept has lost those lines and jumps to the newest (see
/// ``SocketHandler``). Slots are byte arrays that keep their capacity, so once each has held a
/// line as long as the ones being published, appending allocates nothing. Capacity is a power
/// of two and positions wrap with a mask.
struct LineHistory {
  private var slots: ContiguousArray<[UInt8]>
  /// The sequence number the next line gets; lines are numbered from 0.
  private(set) var nextSequence: UInt64 = 0

  /// A history of the last `capacity` lines (rounded up to a power of two).
  init(capacity: Int) {
    var size = 1
    while size < max(1, capacity) { size <<= 1 }
    slots = ContiguousArray(repeating: [], count: size)
  }

  var capacity: Int { slots.count }
  var isEmpty: Bool { nextSequence == 0 }
  /// The sequence number of the oldest line kept.
  var oldestSequence: UInt64 {
    nextSequence > UInt64(capacity) ? nextSequence - UInt64(capacity) : 0
  }
  /// The sequence number of the newest line (meaningless while empty).
  var newestSequence: UInt64 { nextSequence &- 1 }

  /// Appends a copy of `line`, dropping the oldest when full.
  mutating func append(_ line: UnsafeRawBufferPointer) {
    let slot = Int(nextSequence & UInt64(slots.count - 1))
    slots[slot].removeAll(keepingCapacity: true)
    slots[slot].append(contentsOf: line)
    nextSequence += 1
  }

  /// Calls `body` with line `sequence`; `nil` when it is no longer (or not yet) kept.
  func withLine<R>(_ sequence: UInt64, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
    guard sequence >= oldestSequence && sequence < nextSequence else { return nil }
    return slots[Int(sequence & UInt64(slots.count - 1))].withUnsafeBytes(body)
  }
}
