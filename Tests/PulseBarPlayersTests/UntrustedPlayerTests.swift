import PulseBarCore
import Testing

@testable import PulseBarPlayers

/// The rules that keep a hostile player from disturbing the bar, with no bus: who may speak
/// for a name, how many signals are read, which lengths are believed.
@Suite struct UntrustedPlayerTests {
  static let ghost = "org.mpris.MediaPlayer2.ghost"
  static let mpv = "org.mpris.MediaPlayer2.mpv"

  @Test func onlyTheCurrentOwnerSpeaksForAName() {
    var registry = PlayerRegistry()
    registry.appeared(Self.mpv, owner: ":1.5")
    let answer1 = registry.isOwner(Self.mpv, ":1.5")
    #expect(answer1)
    let answer2 = registry.isOwner(Self.mpv, ":1.6")
    #expect(!answer2, "another connection")
    #expect(registry.names(ownedBy: ":1.5") == [Self.mpv])
    #expect(registry.names(ownedBy: ":1.6").isEmpty)
    // A name listed at start-up learns its owner from its first reply; others are refused.
    registry.appeared(Self.ghost, owner: nil)
    let answer3 = registry.isOwner(Self.ghost, ":1.9")
    #expect(answer3)
    let answer4 = registry.isOwner(Self.ghost, ":1.10")
    #expect(!answer4)
    #expect(registry.names(ownedBy: ":1.9") == [Self.ghost])
  }

  @Test func aReplyAfterTheNameWasReleasedChangesNothing() {
    var registry = PlayerRegistry()
    registry.appeared(Self.ghost, owner: ":1.7")
    registry.vanished(Self.ghost)
    // The late reply's sender still exists on the bus, but the name is gone.
    let answer5 = registry.isOwner(Self.ghost, ":1.7")
    #expect(!answer5)
    registry.loaded(Self.ghost)
    registry.update(Self.ghost, status: .playing)
    #expect(registry.players.isEmpty && registry.nowPlaying == nil)
    #expect(registry.names(ownedBy: ":1.7").isEmpty)
  }

  @Test func aNewOwnerIsANewPlayer() {
    var registry = PlayerRegistry()
    registry.appeared(Self.mpv, owner: ":1.1")
    registry.loaded(Self.mpv)
    registry.update(Self.mpv, metadata: Metadata(title: "Old"))
    registry.update(Self.mpv, status: .playing)
    registry.appeared(Self.mpv, owner: ":1.2")
    #expect(registry.nowPlaying == nil, "not shown until the new owner answers")
    #expect(registry.players[Self.mpv]?.title == nil)
    #expect(
      registry.names(ownedBy: ":1.1").isEmpty && registry.names(ownedBy: ":1.2") == [Self.mpv])
    // The same owner again (a repeated signal) keeps what it said.
    registry.loaded(Self.mpv)
    registry.update(Self.mpv, metadata: Metadata(title: "New"))
    registry.appeared(Self.mpv, owner: ":1.2")
    #expect(registry.nowPlaying?.title == "New")
  }

  @Test func signalsAreReadWithinABudget() {
    var budget = SignalBudget(now: 100)
    // A burst of ten is read at once.
    for index in 0..<10 {
      let admitted = budget.admit(at: 100)
      #expect(admitted, "signal \(index)")
    }
    let answer6 = budget.admit(at: 100)
    #expect(!answer6)
    #expect(budget.nextAdmission(after: 100) == 100 + 1 / SignalBudget.refillPerSecond)
    // Then 30 a second.
    let answer7 = budget.admit(at: 100.02)
    #expect(!answer7)
    let answer8 = budget.admit(at: 100 + 1.0 / 30 + 1e-9)
    #expect(answer8)
    let answer9 = budget.admit(at: 100.04)
    #expect(!answer9)
    var admitted = 0
    for step in 0..<10_000 where budget.admit(at: 101 + Double(step) / 10_000) { admitted += 1 }
    // The bucket refilled to its burst while idle before 101 s, then 30 more in the second.
    #expect(admitted >= 39 && admitted <= 41, "\(admitted) of 10,000 signals in a second")
    // Quiet for a second: the whole burst again, never more.
    var burst = 0
    while budget.admit(at: 103) { burst += 1 }
    #expect(burst == 10)
    #expect(budget.nextAdmission(after: 200) == 200)
  }

  @Test(
    arguments: [
      (-5_000_000.0, nil), (0, nil), (Double(Int64.min), nil), (Double(UInt64.max), nil),
      (.nan, nil), (.infinity, nil), (3_500_000.5, nil), (8 * 86_400 * 1e6, nil),
      (180_000_000, 180), (7 * 86_400 * 1e6, 7 * 86_400),
    ] as [(Double, Double?)])
  func lengthsAreBelievedOnlyWhenSensible(microseconds: Double, seconds: Double?) {
    #expect(BusMessage.validLength(microseconds: microseconds) == seconds)
  }
}

/// `players.ignore` and `players.prefer` in the registry's choice.
@Suite struct PlayerPreferenceRegistryTests {
  static let spotify = "org.mpris.MediaPlayer2.spotify"
  static let firefox = "org.mpris.MediaPlayer2.firefox.instance_1_84"
  static let mpv = "org.mpris.MediaPlayer2.mpv"

  static func registry(_ preference: PlayerPreference) -> PlayerRegistry {
    var registry = PlayerRegistry()
    registry.preference = preference
    for (index, name) in [spotify, firefox, mpv].enumerated() {
      registry.appeared(name, owner: ":1.\(index)")
      registry.loaded(name)
      registry.update(name, status: .playing)
    }
    return registry
  }

  @Test func theMostRecentPlayingPlayerWinsWithoutAPreference() {
    #expect(Self.registry(PlayerPreference()).active?.busName == Self.mpv)
  }

  @Test func anIgnoredPlayerIsNeverShown() {
    let registry = Self.registry(PlayerPreference(ignore: ["mpv", "firefox"]))
    #expect(registry.active?.busName == Self.spotify)
    var alone = PlayerRegistry()
    alone.preference = PlayerPreference(ignore: ["firefox"])
    alone.appeared(Self.firefox, owner: ":1.9")
    alone.loaded(Self.firefox)
    #expect(alone.nowPlaying == nil)
  }

  @Test func aPreferredPlayerWinsAmongThoseThatPlay() {
    var registry = Self.registry(PlayerPreference(prefer: ["spotify", "mpv"]))
    #expect(registry.active?.busName == Self.spotify)
    // A preferred player that pauses hands over to the next that plays.
    registry.update(Self.spotify, status: .paused)
    #expect(registry.active?.busName == Self.mpv)
  }
}
