internal import CSystemd
import PulseBarCore
import PulseBarSystem

/// `pulsebar ctl`: one MPRIS call to the active player (or a named one), then exit.
///
/// A bar runs it on a click and waits for it, so everything it asks the bus (the names, the
/// players' states, the call itself) shares one deadline, ``budgetNanoseconds``: a player that
/// hangs costs at most that, and the call to it is still sent.
///
/// A one-shot process has no history of who played last, so "active" here is read from the
/// players' states: a playing player first, then a paused one, then any; among equals, the
/// newest connection. That is the daemon's choice whenever one player plays, which is when
/// a click on a bar matters.
package enum PlayerControl {
  /// What `ctl` can ask a player to do: the word on the command line.
  package enum Action: String, Sendable, CaseIterable {
    case playPause = "play-pause"
    case play, pause, next, previous, volume, seek, position

    /// The `org.mpris.MediaPlayer2.Player` method (`Volume` is a property, set through
    /// `org.freedesktop.DBus.Properties.Set`).
    var member: String {
      switch self {
      case .playPause: "PlayPause"
      case .play: "Play"
      case .pause: "Pause"
      case .next: "Next"
      case .previous: "Previous"
      case .volume: "Volume"
      case .seek: "Seek"
      case .position: "SetPosition"
      }
    }

    /// The operand's placeholder, for the actions that take one.
    package var operand: String? {
      switch self {
      case .volume: "LEVEL"
      case .seek: "SECONDS"
      case .position: "TIME"
      case .playPause, .play, .pause, .next, .previous: nil
      }
    }

    /// One line of what it does, for `--help`, the man page and the completions.
    package var help: String {
      switch self {
      case .playPause: "toggle playing and paused (a click)"
      case .play: "play"
      case .pause: "pause"
      case .next: "the next track"
      case .previous: "the previous track"
      case .volume:
        "set the volume (0.4 or 40%) or step it (+5%, -5%; a step stops at 0 and 100%)"
      case .seek: "move by seconds, +10 or -10 (or -1:30)"
      case .position: "go to a time in the track, 1:23 or 83"
      }
    }
  }

  /// An action with its operand read and bounded (``PlayerAdjustment``).
  package enum Request: Sendable, Equatable {
    /// A method with no arguments: play-pause, play, pause, next, previous.
    case call(Action)
    case volume(PlayerAdjustment.VolumeChange)
    /// `Seek` by this many microseconds.
    case seek(microseconds: Int64)
    /// `SetPosition` to this many microseconds into the current track.
    case position(microseconds: Int64)

    /// `action` with `operand` (`nil` when the command line had none).
    package init(_ action: Action, operand: String?) throws(PlayerAdjustment.Failure) {
      guard let placeholder = action.operand else {
        if let operand {
          throw PlayerAdjustment.Failure(
            description: "\(action.rawValue) takes no value, got '\(operand)'")
        }
        self = .call(action)
        return
      }
      guard let operand else {
        throw PlayerAdjustment.Failure(
          description: "\(action.rawValue) needs \(placeholder): \(action.help)")
      }
      switch action {
      case .volume: self = .volume(try PlayerAdjustment.volume(operand))
      case .seek: self = .seek(microseconds: try PlayerAdjustment.seekOffset(operand))
      default: self = .position(microseconds: try PlayerAdjustment.position(operand))
      }
    }
  }

  /// A reason `ctl` did nothing: one line for stderr.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// Sends `request` to `player` (a name after `org.mpris.MediaPlayer2.`, or its prefix before
  /// `.instance…`), else to the active player. Returns the player's name.
  /// `preference` leaves out the players `players.ignore` names (unless `player` names one)
  /// and ranks those that play by `players.prefer`.
  package static func perform(
    _ request: Request, player: String?, preference: PlayerPreference = PlayerPreference()
  ) throws(Failure) -> String {
    let deadline = monotonicNanoseconds() + budgetNanoseconds
    let connection: BusConnection
    do {
      connection = try BusConnection()
    } catch {
      throw Failure(description: "\(error); no player to control")
    }
    let chosen = try choose(player, on: connection, preference: preference, deadline: deadline)
    do {
      try send(request, to: chosen, on: connection, deadline: deadline)
    } catch {
      throw Failure(description: "\(short(chosen)): \(error)")
    }
    return short(chosen)
  }

  /// How long `ctl` may wait on the bus in all, in nanoseconds.
  static let budgetNanoseconds: UInt64 = 800_000_000

  /// Seconds from now to `deadline` (monotonic nanoseconds), at least 50 ms: a call always
  /// gets a moment to be answered, and sd-bus never reads 0 as its 25 s default.
  static func secondsLeft(until deadline: UInt64) -> Double {
    let now = monotonicNanoseconds()
    return max(0.05, Double(deadline > now ? deadline - now : 0) / 1e9)
  }

  private static func short(_ busName: String) -> String {
    String(busName.dropFirst(PlayerRegistry.busNamePrefix.count))
  }

  /// The bus name to call.
  private static func choose(
    _ wanted: String?, on connection: BusConnection, preference: PlayerPreference,
    deadline: UInt64
  ) throws(Failure) -> String {
    var names: [String] = []
    do {
      let call = try connection.methodCall(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "ListNames")
      names =
        try connection.call(call, timeoutSeconds: secondsLeft(until: deadline)).readStrings() ?? []
    } catch {
      throw Failure(description: "the session bus did not list its names: \(error)")
    }
    names = names.filter(PlayerRegistry.isPlayerName)
    if let wanted {
      let exact = PlayerRegistry.busNamePrefix + wanted
      names = names.filter { $0 == exact || $0.hasPrefix(exact + ".") }
      guard !names.isEmpty else {
        throw Failure(description: "no MPRIS player named '\(wanted)' on the session bus")
      }
    } else {
      names = names.filter { !preference.ignores($0) }
    }
    guard !names.isEmpty else {
      throw Failure(description: "no MPRIS player on the session bus")
    }
    if names.count == 1 { return names[0] }
    // (rank: playing 2, paused 1, else 0; among players that play, `prefer`'s order;
    // connection serial) — highest wins.
    var best: (name: String, rank: Int, preferred: Int, serial: Int)?
    for (name, answer) in playbackStatuses(of: names, on: connection) {
      let rank = answer.status == .playing ? 2 : answer.status == .paused ? 1 : 0
      let preferred = rank == 2 ? -preference.rank(name) : 0
      let serial = Int(answer.owner.split(separator: ".").last ?? "") ?? 0
      if best == nil
        || (rank, preferred, serial) > (best!.rank, best!.preferred, best!.serial)
      {
        best = (name, rank, preferred, serial)
      }
    }
    return best?.name ?? names[0]
  }

  /// How long `ctl` waits for the players' states, all of them together: most of
  /// ``budgetNanoseconds``, leaving the call to the chosen player the rest.
  static let statusDeadlineMicroseconds: UInt64 = 450_000

  /// The replies to the `PlaybackStatus` calls `ctl` sends, by bus name.
  private final class StatusReplies {
    var names: [UInt64: String] = [:]
    var answers: [String: (status: PlayerStatus, owner: String)] = [:]
    var outstanding = 0
  }

  /// Every player's `PlaybackStatus` and the unique name that answered, asked of all at once:
  /// a player that hangs costs at most ``statusDeadlineMicroseconds`` in all, however many
  /// hang. Players that do not answer in time are left out.
  private static func playbackStatuses(of busNames: [String], on connection: BusConnection)
    -> [String: (status: PlayerStatus, owner: String)]
  {
    let replies = StatusReplies()
    let context = Unmanaged.passUnretained(replies).toOpaque()
    for busName in busNames {
      do {
        let call = try connection.methodCall(
          destination: busName, path: PlayerSession.playerPath,
          interface: "org.freedesktop.DBus.Properties", member: "Get",
          arguments: [PlayerCore.playerInterface, "PlaybackStatus"])
        let cookie = try connection.callAsync(
          call, context: context, timeoutMicroseconds: statusDeadlineMicroseconds,
          handler: { message, context, _ in
            let replies = Unmanaged<StatusReplies>.fromOpaque(context!).takeUnretainedValue()
            let reply = BusMessage(borrowing: message!)
            guard let cookie = reply.replyCookie, let name = replies.names[cookie] else {
              return 0
            }
            replies.outstanding -= 1
            if reply.errorText == nil, reply.enter(UInt8(ascii: "v"), "s"),
              let text = reply.readString()
            {
              replies.answers[name] = (PlayerStatus(rawValue: text) ?? .stopped, reply.sender ?? "")
            }
            return 0
          })
        replies.names[cookie] = busName
        replies.outstanding += 1
      } catch {
        continue
      }
    }
    // sd-bus ends each call by its timeout; the deadline here only guards against a bus that
    // stops answering altogether.
    let deadline = monotonicNanoseconds() + statusDeadlineMicroseconds * 1000 + 100_000_000
    var poll = PollSet()
    let index = poll.add(connection.pollState.descriptor)
    while replies.outstanding > 0 {
      do { try connection.processAll() } catch { break }
      let now = monotonicNanoseconds()
      guard replies.outstanding > 0, now < deadline else { break }
      let state = connection.pollState
      poll.update(index, state.events)
      let until = min(deadline, state.deadline ?? deadline)
      poll.wait(timeoutMilliseconds: Int32(until <= now ? 0 : (until - now + 999_999) / 1_000_000))
    }
    return replies.answers
  }
}
