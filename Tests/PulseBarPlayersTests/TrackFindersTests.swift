import Glibc
import Testing

@testable import PulseBarPlayers

/// The finders the players' session starts with hold no descriptor for the process's life:
/// their mailboxes' eventfds close when the finders are replaced (two stayed open at exit).
@Suite struct TrackFindersTests {
  @Test func theEmptyFindersCloseTheirEventfds() {
    var descriptors: [Int32] = []
    do {
      let finders = TrackFinders.none
      descriptors = finders.descriptors.map(\.rawValue)
      #expect(descriptors.allSatisfy { fcntl($0, F_GETFD) >= 0 }, "open while held")
    }
    #expect(TrackFinders.none.lyrics.reloads !== TrackFinders.none.lyrics.reloads, "made afresh")
    // Closed as the finders went (another test may reuse a number at once: then it is open,
    // but as another eventfd or file, which this cannot tell; both closing is what counts).
    let closed = descriptors.filter { fcntl($0, F_GETFD) < 0 && errno == EBADF }
    #expect(closed.count == 2, "\(descriptors) closed: \(closed)")
  }
}
