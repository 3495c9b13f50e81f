import PulseBarCore
import Testing

@testable import PulseBarPlayers

/// ``PlayerCore``'s decisions at exact times, with no bus: a player that appears, plays,
/// seeks, changes track, pauses, changes rate, hangs and quits; owner changes; the flood
/// budget; hostile values.
@Suite struct PlayerCoreTests {
  typealias Script = PlayerCoreScript
  static let mpv = Script.mpv
  static let owner = Script.owner
  static let first = Metadata(title: "First", length: 60, url: "file:///a.flac")
  static let second = Metadata(title: "Second", length: 60, url: "file:///b.flac")

  /// mpv playing `first` from 0 at time 0.
  static func playing(rate: Double = 1) -> Script {
    var script = Script()
    script.send(.started, at: 0)
    script.answer(.listNames, with: .names([]), at: 0)
    script.appear(
      PlayerProperties(status: .playing, metadata: first, position: 0, rate: rate), at: 0)
    return script
  }

  @Test func aPlayerAppearsIsReadFollowedAndPublishedOncePerTurn() {
    var script = Script()
    #expect(script.send(.started, at: 0) == [.call(1, .listNames)])
    script.answer(.listNames, with: .names([Self.mpv, "org.example.other"]), at: 0.01)
    #expect(script.calls == [.properties(busName: Self.mpv)])
    // Listed at start-up: the owner comes with the first reply, then it is followed, read
    // again (what changed before the rules took hold) and asked who it is.
    script.answer(
      .properties(busName: Self.mpv),
      with: .properties(
        sender: Self.owner, PlayerProperties(status: .playing, position: 5_000_000)),
      at: 0.02)
    #expect(script.actions.first == .subscribe(owner: Self.owner))
    #expect(
      script.calls == [
        .properties(busName: Self.mpv), .processID(owner: Self.owner),
        .desktopEntry(busName: Self.mpv),
      ])
    #expect(script.send(.tick, at: 0.02) == [.publish])
    #expect(script.send(.tick, at: 0.03) == [], "nothing changed since")
    #expect(script.position(at: 1.02) == 6)
    script.answer(.processID(owner: Self.owner), with: .processID(sender: Script.bus, 4242), at: 1)
    #expect(script.core.registry.nowPlaying?.processID == 4242)
  }

  @Test func playSeekPauseRateQuit() {
    var script = Self.playing()
    #expect(script.position(at: 10) == 10)
    script.send(.seeked(sender: Self.owner, position: 40_000_000), at: 10)
    #expect(script.position(at: 12) == 42)
    script.changed(PlayerProperties(status: .paused), at: 12)
    #expect(script.calls == [.position(busName: Self.mpv)])
    #expect(script.position(at: 20) == 42, "frozen while paused")
    script.answer(
      .position(busName: Self.mpv), with: .position(sender: Self.owner, 42_000_000), at: 12.01)
    script.changed(PlayerProperties(status: .playing, rate: 2), at: 20)
    #expect(script.position(at: 21) == 44)
    script.send(.ownerChanged(sender: Script.bus, name: Self.mpv, newOwner: ""), at: 22)
    #expect(script.actions == [.unsubscribe(owner: Self.owner)])
    #expect(script.core.registry.nowPlaying == nil)
    // A late reply for the name that went counts for nothing.
    script.answer(.position(busName: Self.mpv), with: .position(sender: Self.owner, 1), at: 22.1)
    #expect(script.core.registry.players.isEmpty)
  }

  /// The jump seen in a real bar, and its neighbours: mpv played `first` for 30 s, then a
  /// `loadfile` of `second`. Each row: what the player sent after the change, and the
  /// position shown 16.3 s into the new track (mpv said 16.3 s; the bar showed 47.6 s).
  enum TrackChange: String, CaseIterable {
    /// mpv-mpris: a first Metadata (the file's name, no length), a read answered with the old
    /// track's position, a second Metadata (the tags) while that read was in flight.
    case twoSignalsFirstReadStale
    /// One Metadata signal and a `Seeked(0)` after it.
    case withSeeked
    /// One Metadata signal, its read answered with the old position (the player had not
    /// switched yet): the settling read corrects it.
    case readAnsweredStale
    /// One Metadata signal, its read failed.
    case readFailed
    /// A read asked before the change (a status signal), answered after it, old.
    case readRacingTheChange
    /// mpv on a busy machine: `Playing` at once, its position still 0 until 0.81 s later;
    /// read again until two reads agree.
    case playerStartsLate
  }

  @Test(arguments: TrackChange.allCases)
  func theTrackChangesAfterThirtySeconds(_ row: TrackChange) throws {
    var script = Self.playing()
    let change = 30.0
    let newTrack = PlayerProperties(metadata: Self.second)
    switch row {
    case .twoSignalsFirstReadStale:
      script.changed(
        PlayerProperties(metadata: Metadata(title: "b.flac", url: "file:///b.flac")), at: change)
      let stale = script.newest(.position(busName: Self.mpv))!
      script.changed(newTrack, at: change + 0.1)
      script.answer(stale, with: .position(sender: Self.owner, 30_000_000), at: change + 0.11)
      script.answer(
        .position(busName: Self.mpv), with: .position(sender: Self.owner, 120_000),
        at: change + 0.12)
    case .withSeeked:
      script.changed(newTrack, at: change)
      script.send(.seeked(sender: Self.owner, position: 0), at: change + 0.01)
      script.answer(
        .position(busName: Self.mpv), with: .position(sender: Self.owner, 20_000), at: change + 0.02
      )
    case .readAnsweredStale:
      script.changed(newTrack, at: change)
      script.answer(
        .position(busName: Self.mpv), with: .position(sender: Self.owner, 30_000_000),
        at: change + 0.01)
      script.send(.tick, at: try #require(script.core.nextDue))
      #expect(script.calls == [.position(busName: Self.mpv)], "the settling read")
      script.answer(
        .position(busName: Self.mpv), with: .position(sender: Self.owner, 510_000),
        at: change + 0.51)
    case .playerStartsLate: break
    case .readFailed:
      script.changed(newTrack, at: change)
      script.answer(.position(busName: Self.mpv), with: .failed("Timeout"), at: change + 2)
    case .readRacingTheChange:
      script.changed(PlayerProperties(status: .playing), at: change - 0.01)
      let racing = script.newest(.position(busName: Self.mpv))!
      script.changed(newTrack, at: change)
      script.answer(racing, with: .position(sender: Self.owner, 29_990_000), at: change + 0.01)
      script.answer(
        .position(busName: Self.mpv), with: .position(sender: Self.owner, 10_000), at: change + 0.02
      )
    }
    var player = 16.3
    if row == .playerStartsLate {
      let started = change + 0.81
      player -= 0.81
      script.changed(newTrack, at: change)
      var time = change + 0.01
      for _ in 0..<PositionSettling.maximumReads {
        let said = Int64((max(0, time - started) * 1_000_000).rounded())
        script.answer(
          .position(busName: Self.mpv), with: .position(sender: Self.owner, said), at: time)
        guard let due = script.core.nextDue else { break }
        time = due
        script.send(.tick, at: time)
      }
      #expect(script.core.nextDue == nil, "settled")
    }
    script.send(.tick, at: change + 1)
    let shown = script.position(at: change + 16.3)!
    #expect(abs(shown - player) <= 0.1, "\(row): showed \(shown) s, the player \(player) s")
  }

  @Test func aPauseAndARateAcrossTheChange() {
    var script = Self.playing(rate: 2)
    script.changed(PlayerProperties(status: .paused), at: 10)
    script.changed(PlayerProperties(metadata: Self.second), at: 11)
    #expect(script.position(at: 15) == 0, "the new track waits at its start")
    script.changed(PlayerProperties(status: .playing), at: 15)
    #expect(script.position(at: 16) == 2)
  }

  @Test func theSameTrackAgainIsNoChange() {
    var script = Self.playing()
    var richer = Self.first
    richer.artURL = "file:///cover.png"
    script.changed(PlayerProperties(metadata: richer), at: 20)
    #expect(script.position(at: 21) == 21)
    #expect(script.core.nextDue == nil, "no settling read")
  }

  @Test func aNewOwnerIsANewPlayerAndTheOldOnesRepliesDoNotCount() {
    var script = Self.playing()
    let oldRead = script.changed(PlayerProperties(status: .paused), at: 5)
    #expect(oldRead.count == 1)
    let stale = script.newest(.position(busName: Self.mpv))!
    script.send(.ownerChanged(sender: Script.bus, name: Self.mpv, newOwner: ":1.9"), at: 6)
    #expect(script.actions.first == .subscribe(owner: ":1.9"))
    #expect(script.actions.contains(.unsubscribe(owner: Self.owner)))
    #expect(script.calls.first == .properties(busName: Self.mpv))
    script.answer(stale, with: .position(sender: Self.owner, 99_000_000), at: 6.1)
    script.answer(
      .properties(busName: Self.mpv),
      with: .properties(sender: Self.owner, PlayerProperties(status: .playing)), at: 6.2)
    #expect(script.core.registry.players[Self.mpv]?.status == .stopped, "from the old owner")
    #expect(script.core.registry.players[Self.mpv]?.position == nil)
    // Only the bus says who owns a name.
    script.send(.ownerChanged(sender: ":1.9", name: Self.mpv, newOwner: ""), at: 7)
    #expect(script.core.registry.players[Self.mpv] != nil)
  }

  @Test func aFloodIsMutedForASecondThenReadAfresh() {
    var script = Self.playing()
    for index in 0..<Int(SignalBudget.capacity) {
      script.send(.seeked(sender: Self.owner, position: Int64(index)), at: 1)
      #expect(!script.actions.contains(.pauseReading))
    }
    script.send(.seeked(sender: Self.owner, position: 1), at: 1)
    #expect(
      script.actions == [
        .pauseReading, .unsubscribe(owner: Self.owner),
        .log("MPRIS: :1.5 sends too many signals; not listened to for a second"),
      ])
    script.send(.seeked(sender: Self.owner, position: 1), at: 1)
    #expect(script.actions == [.pauseReading], "said once")
    #expect(script.core.nextDue == 2)
    #expect(!script.send(.tick, at: 1.99).contains(.subscribe(owner: Self.owner)))
    script.send(.tick, at: 2)
    #expect(script.actions.first == .subscribe(owner: Self.owner))
    #expect(script.calls == [.properties(busName: Self.mpv)], "read afresh")
  }

  @Test func aHungPlayerIsShownStoppedAndAskedAgainWithBackOff() {
    var script = Script()
    script.send(.ownerChanged(sender: Script.bus, name: Self.mpv, newOwner: Self.owner), at: 0)
    script.answer(.properties(busName: Self.mpv), with: .failed("Connection timed out"), at: 2)
    #expect(
      script.actions == [
        .log(
          "MPRIS: org.mpris.MediaPlayer2.mpv did not answer (Connection timed out); shown as"
            + " stopped, asked again later")
      ])
    #expect(script.core.registry.nowPlaying?.status == .stopped)
    #expect(script.core.nextDue == 4)
    script.send(.tick, at: 4)
    #expect(script.calls == [.properties(busName: Self.mpv)])
    script.answer(.properties(busName: Self.mpv), with: .failed("Connection timed out"), at: 6)
    #expect(script.actions.isEmpty, "said once")
    #expect(script.core.nextDue == 10)
  }

  /// Issue 26's numbers: they are bounded where they enter, and the core stays total.
  @Test func hostileValues() {
    var script = Self.playing()
    script.send(.seeked(sender: Self.owner, position: -5), at: 1)
    #expect(script.position(at: 1) == 1, "a negative position is left out")
    script.send(.seeked(sender: Self.owner, position: .max), at: 2)
    #expect((0...60).contains(script.position(at: 3) ?? -1), "within the track")
    script.changed(PlayerProperties(rate: PlayerValueBounds.rate(.nan)), at: 3)
    #expect(script.core.registry.nowPlaying?.rate == 1)
    script.answer(.processID(owner: Self.owner), with: .processID(sender: Self.owner, 4242), at: 4)
    #expect(script.core.registry.nowPlaying?.processID == nil, "only the bus says")
    script.answer(
      .desktopEntry(busName: Self.mpv), with: .desktopEntry(sender: ":1.6", "evil"), at: 4)
    #expect(script.core.registry.nowPlaying?.desktopEntry == nil, "not the owner")
  }
}
