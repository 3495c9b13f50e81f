/// What the bars record from the audio server: the active player's own streams while it plays
/// (`player`, the default), or always the whole output, the default sink's monitor (`output`).
///
/// `--input pulse:NAME`, files, fifos and stdin ignore the scope: they name what to record.
package enum CaptureScope: String, Sendable, CaseIterable {
  case player
  case output
}
