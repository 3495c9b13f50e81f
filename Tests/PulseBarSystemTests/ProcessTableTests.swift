import Glibc
import Testing

@testable import PulseBarSystem

/// ``ProcessTable``: the parent of a real process, and `stat` lines whose name holds spaces
/// and parentheses.
@Suite struct ProcessTableTests {
  func parent(of line: String) -> Int32? {
    Array(line.utf8).withUnsafeBufferPointer { ProcessTable.parentField($0) }
  }

  @Test func theParentOfThisProcessIsItsParent() {
    #expect(ProcessTable.parent(of: getpid()) == getppid())
    #expect(ProcessTable.parent(of: 0) == nil)
    #expect(ProcessTable.parent(of: Int32.max) == nil, "no such process")
  }

  @Test func theNameMayHoldSpacesAndParentheses() {
    #expect(parent(of: "4242 (mpv) S 17 4242 4242 0 -1") == 17)
    #expect(parent(of: "4242 (Web Content) S 901 4242") == 901)
    #expect(parent(of: "4242 (a) b) (c) R 33 1") == 33)
    #expect(parent(of: "4242 (x") == nil)
    #expect(parent(of: "4242 (x) S") == nil)
  }
}
