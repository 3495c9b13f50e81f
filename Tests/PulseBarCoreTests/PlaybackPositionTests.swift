import Testing

@testable import PulseBarCore

/// MPRIS `Position` sampled at a time, extrapolated with `Rate` while playing.
@Suite struct PlaybackPositionTests {
  @Test func extrapolatesWhilePlayingAndFreezesWhilePaused() {
    var position = PlaybackPosition(
      microseconds: 10_000_000, at: 100, status: .playing, length: 200)
    #expect(position.seconds(at: 100) == 10)
    #expect(position.seconds(at: 102.5) == 12.5)
    position.statusChanged(to: .paused, at: 104)
    #expect(position.seconds(at: 104) == 14)
    #expect(position.seconds(at: 150) == 14, "frozen while paused")
    position.statusChanged(to: .playing, at: 150)
    #expect(position.seconds(at: 151) == 15)
    position.statusChanged(to: .stopped, at: 152)
    #expect(position.seconds(at: 170) == 16)
  }

  @Test func seekedResets() {
    var position = PlaybackPosition(microseconds: 0, at: 0, status: .playing, length: 200)
    #expect(position.seconds(at: 30) == 30)
    position.seeked(to: 5_000_000, at: 30)
    #expect(position.seconds(at: 30) == 5)
    #expect(position.seconds(at: 31) == 6)
  }

  @Test func rateScalesAndClampsToTheTrack() {
    var position = PlaybackPosition(
      microseconds: 1_000_000, at: 10, rate: 2.0, status: .playing, length: 20)
    #expect(position.seconds(at: 11) == 3)
    #expect(position.seconds(at: 100) == 20, "clamped to the length")
    position.rateChanged(to: 1, at: 12)
    #expect(position.seconds(at: 13) == 6)
    let odd = PlaybackPosition(microseconds: -5, at: 0, rate: .nan, status: .playing)
    #expect(odd.seconds(at: 0) == 0)
    #expect(odd.seconds(at: 1) == 1, "a bad rate counts as 1")
  }

  /// The engine wakes when the shown second changes: at most once a second, never paused.
  @Test func nextVisibleChange() {
    let playing = PlaybackPosition(microseconds: 10_250_000, at: 100, status: .playing)
    #expect(playing.nextVisibleChange(after: 100) == 100.75)
    #expect(playing.nextVisibleChange(after: 100.75) == 101.75)
    let fast = PlaybackPosition(microseconds: 0, at: 0, rate: 2, status: .playing)
    #expect(fast.nextVisibleChange(after: 0) == 1, "2 s of track, 1 s of time")
    #expect(fast.nextVisibleChange(after: 1) == 2)
    let paused = PlaybackPosition(microseconds: 0, at: 0, status: .paused)
    #expect(paused.nextVisibleChange(after: 5) == nil)
    let ended = PlaybackPosition(microseconds: 9_000_000, at: 0, status: .playing, length: 10)
    #expect(ended.nextVisibleChange(after: 0) == 1)
    #expect(ended.nextVisibleChange(after: 2) == nil, "at the end nothing moves")
  }

  @Test(
    arguments: [
      (0, "0:00"), (9.99, "0:09"), (62, "1:02"), (599, "9:59"), (3599, "59:59"), (3600, "1:00:00"),
      (3725, "1:02:05"), (-3, "0:00"), (.infinity, "0:00"),
    ] as [(Double, String)])
  func clockFormat(seconds: Double, expected: String) {
    var line = ByteLine()
    PlaybackPosition.appendClock(seconds, into: &line)
    #expect(String(decoding: line.bytes, as: UTF8.self) == expected)
  }
}
