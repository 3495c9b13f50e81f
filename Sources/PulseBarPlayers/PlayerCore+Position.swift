import PulseBarCore

/// Where the position is after a track change.
///
/// mpv-mpris announces a `loadfile` with one or two `Metadata` signals and no `Seeked`: the
/// first names the file before its tags are read (no length), the second the tags. A
/// `Position` read right after the first can be answered with the old track's position (mpv's
/// `time-pos` still holds it), and the read the second signal wanted was dropped while the
/// first was in flight: the old track's position then ran on (json 39.2 s, then 47.6 s, while
/// mpv said 16.3 s). So a new track starts at 0 where it was announced (unless the message
/// says a position), every read asked before it no longer counts, and it is read at once and
/// again until two reads agree (``PositionSettling``).
extension PlayerCore {
  /// Applies `properties` to each of `names` at the event's time; says whether the track,
  /// the status or the rate was among them (the position moves differently from then on).
  @discardableResult
  mutating func apply(_ properties: PlayerProperties, to names: [String]) -> Bool {
    for name in names {
      var properties = properties
      if let metadata = properties.metadata, let player = registry.players[name],
        player.position != nil, Self.isAnotherTrack(metadata, than: player)
      {
        if properties.position == nil { properties.position = 0 }
        requestPosition(of: name, superseding: true)
        settling[name] = PositionSettling(changedAt: now)
      }
      registry.apply(properties, to: name, at: now)
    }
    changed = true
    return properties.status != nil || properties.metadata != nil || properties.rate != nil
  }

  /// Whether `metadata` names another track than `player` plays: another title, URL or length
  /// (the art, album or lyric may come later for the same track).
  static func isAnotherTrack(_ metadata: Metadata, than player: PlayerRegistry.Player) -> Bool {
    metadata.title != player.track.title || metadata.url != player.track.url
      || metadata.length != player.track.length
  }

  /// Asks `name` for its `Position`. With a read in flight, none is asked, unless the track
  /// changed (`superseding`): the older read's answer no longer counts.
  mutating func requestPosition(of name: String, superseding: Bool) {
    if let pending = positionCalls[name] {
      guard superseding else { return }
      calls[pending] = nil
    }
    positionCalls[name] = call(.position(busName: name))
  }
}
