import PulseBarCore

/// What `pulsebar` was asked to do.
package enum Command: Equatable {
  case run(RunOptions)
  case listen(ListenOptions)
  /// `overlay [--port N] [--listen ADDRESS] [--socket PATH]`.
  case overlay(OverlayOptions)
  case checkConfig(path: String?)
  case bands(BandsOptions)
  /// `--help`, `-h`, `help [COMMAND]`, `COMMAND --help`: the whole help (`nil`) or a command's.
  case help(command: String?)
  /// `ctl ACTION [--player NAME]`.
  case control(ControlOptions)
  /// `status [--json] [--socket PATH]`.
  case status(StatusOptions)
  case version
}
