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
    #expect(registry.players[Self.mpv]?.track.title == nil)
    #expect(
      registry.names(ownedBy: ":1.1").isEmpty && registry.names(ownedBy: ":1.2") == [Self.mpv])
    // The same owner again (a repeated signal) keeps what it said.
    registry.loaded(Self.mpv)
    registry.update(Self.mpv, metadata: Metadata(title: "New"))
    registry.appeared(Self.mpv, owner: ":1.2")
    #expect(registry.nowPlaying?.title == "New")
  }

  @Test func aSilentPlayerIsAskedAgainWithBackOff() {
    var retries = SilentPlayerRetries()
    #expect(retries.nextDue == nil && retries.due(at: 1000).isEmpty)
    let first = retries.noAnswer(from: Self.mpv, at: 10)
    #expect(first, "said the first time")
    #expect(retries.nextDue == 12)
    #expect(retries.due(at: 11.9).isEmpty)
    #expect(retries.due(at: 12) == [Self.mpv])
    #expect(retries.nextDue == .infinity, "not due again while its answer is awaited")
    #expect(retries.due(at: 100).isEmpty)
    // Silent again: 4 s, 8 s, … at most a minute.
    let again = retries.noAnswer(from: Self.mpv, at: 14)
    #expect(!again, "said once")
    #expect(retries.nextDue == 18)
    var now = 18.0
    var waits: [Double] = []
    for _ in 0..<6 {
      _ = retries.due(at: now)
      _ = retries.noAnswer(from: Self.mpv, at: now)
      waits.append(retries.nextDue! - now)
      now = retries.nextDue!
    }
    #expect(waits == [8, 16, 32, 60, 60, 60])
    // Another player keeps its own schedule; an answer ends one.
    #expect(retries.due(at: now) == [Self.mpv])
    _ = retries.noAnswer(from: Self.ghost, at: now)
    #expect(retries.due(at: now + 2) == [Self.ghost])
    retries.forget(Self.mpv)
    retries.forget(Self.ghost)
    #expect(retries.nextDue == nil)
    // A player that answered and later falls silent starts over at 2 s, unsaid; one that went
    // and came back is said again.
    let afterAnswer = retries.noAnswer(from: Self.mpv, at: 500)
    #expect(retries.nextDue == 502 && !afterAnswer)
    retries.vanished(Self.mpv)
    let afterReturn = retries.noAnswer(from: Self.mpv, at: 600)
    #expect(afterReturn)
  }

  @Test func signalsAreReadWithinABudget() {
    let burst = Int(SignalBudget.capacity)
    var budget = SignalBudget(now: 100)
    // A burst (a player's signals at a track change) is read at once.
    for index in 0..<burst {
      let admitted = budget.admit(at: 100)
      #expect(admitted, "signal \(index)")
    }
    let overBurst = budget.admit(at: 100)
    #expect(!overBurst)
    #expect(budget.nextAdmission(after: 100) == 100 + 1 / SignalBudget.refillPerSecond)
    // Then 30 a second.
    let early = budget.admit(at: 100.02)
    #expect(!early)
    let due = budget.admit(at: 100 + 1.0 / 30 + 1e-9)
    #expect(due)
    let tooSoon = budget.admit(at: 100.04)
    #expect(!tooSoon)
    var admitted = 0
    for step in 0..<10_000 where budget.admit(at: 102 + Double(step) / 10_000) { admitted += 1 }
    // The bucket refilled to its burst while idle before 102 s, then 30 more in the second.
    let expected = Double(burst) + SignalBudget.refillPerSecond
    #expect(abs(Double(admitted) - expected) <= 1, "\(admitted) of 10,000 signals in a second")
    // Quiet for two seconds: the whole burst again, never more.
    var again = 0
    while budget.admit(at: 105) { again += 1 }
    #expect(again == burst)
    #expect(budget.nextAdmission(after: 200) == 200)
  }

  @Test(
    arguments: [
      (-5_000_000.0, nil), (0, nil), (Double(Int64.min), nil), (Double(UInt64.max), nil),
      (.nan, nil), (.infinity, nil), (3_500_000.5, nil), (8 * 86_400 * 1e6, nil),
      (180_000_000, 180), (7 * 86_400 * 1e6, 7 * 86_400),
    ] as [(Double, Double?)])
  func lengthsAreBelievedOnlyWhenSensible(microseconds: Double, seconds: Double?) {
    #expect(PlayerValueBounds.length(microseconds: microseconds) == seconds)
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
