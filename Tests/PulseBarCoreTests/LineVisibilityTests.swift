import Testing

@testable import PulseBarCore

/// `output.hide_when` and `output.hide_after` with exact times.
@Suite struct LineVisibilityTests {
  @Test func hidesAfterTheDelayAndShowsOnSound() {
    var visibility = LineVisibility(rule: .stopped, after: 5)
    visibility.advance(to: 0, state: .playing, sound: true)
    #expect(!visibility.isHidden && !visibility.isPending)
    visibility.advance(to: 1, state: .stopped, sound: false)
    #expect(!visibility.isHidden && visibility.isPending)
    #expect(visibility.deadline == 6)
    visibility.advance(to: 5.9, state: .stopped, sound: false)
    #expect(!visibility.isHidden)
    visibility.advance(to: 6, state: .stopped, sound: false)
    #expect(visibility.isHidden && !visibility.isPending && visibility.deadline == nil)
    visibility.advance(to: 7, state: .stopped, sound: true)
    #expect(!visibility.isHidden, "the first frame with sound shows it")
    visibility.advance(to: 8, state: .stopped, sound: false)
    #expect(!visibility.isHidden && visibility.isPending, "the delay starts again")
  }

  @Test func rulesPickTheStates() {
    var stopped = LineVisibility(rule: .stopped, after: 0)
    stopped.advance(to: 0, state: .paused, sound: false)
    #expect(!stopped.isHidden, "paused is not stopped")
    var notPlaying = LineVisibility(rule: .notPlaying, after: 0)
    notPlaying.advance(to: 0, state: .paused, sound: false)
    #expect(notPlaying.isHidden)
    notPlaying.advance(to: 1, state: .playing, sound: false)
    #expect(!notPlaying.isHidden)
    var never = LineVisibility(rule: .never, after: 0)
    never.advance(to: 0, state: .stopped, sound: false)
    #expect(!never.isHidden && !never.isPending)
  }
}
