import PulseBarCore

/// The lines `pulsebar listen` writes itself, in place of the daemon's: the offline line while
/// the daemon is away and the error line while listen's config is broken (or the daemon
/// refuses what it asked for). Both keep the module visible and as wide as the live lines.
extension ListenCommand {
  /// The text of the error line (one cell in every font: the module keeps its width).
  package static let errorText = "!"

  /// The line printed while the daemon is unreachable. `offline_text` (default Ø) is its text in
  /// every format that has one, so the module stays visible; in the text and waybar formats it
  /// is padded with figure spaces to `width` (the live lines'), so the module keeps its width:
  ///
  /// - `waybar`: text `offline_text`, class and alt `offline` (the shipped CSS dims it); an
  ///   empty text would make waybar hide the module, and a bar with nothing else vanish;
  /// - `json`: `{"state":"offline","text":…}`;
  /// - `text`: `offline_text` (polybar, i3blocks: a block that went blank, or kept the last
  ///   playing frame, said nothing about the daemon being gone);
  /// - `raw`: every bar at 0 (`0;` per bar), what cava prints in silence, so a script that
  ///   splits on `;` keeps working.
  package static func offlineFrame(
    format: OutputFormat, bars: Int, configuration: Configuration,
    width: LiveLineWidth? = nil
  ) -> String {
    frame(
      text: configuration.offlineText, state: "offline", tooltip: "pulsebar is not running",
      format: format, bars: bars, width: width)
  }

  /// The line printed while listen's config is broken or the daemon refuses the subscription:
  /// ``errorText`` padded as the offline line is, state and class `error`, and `message` in
  /// waybar's tooltip and json's `error`.
  package static func errorFrame(
    message: String, format: OutputFormat, bars: Int, width: LiveLineWidth? = nil
  ) -> String {
    frame(
      text: errorText, state: "error", tooltip: "pulsebar: " + message, format: format, bars: bars,
      width: width)
  }

  private static func frame(
    text: String, state: String, tooltip: String, format: OutputFormat, bars: Int,
    width: LiveLineWidth?
  ) -> String {
    let shown = width?.padded(text) ?? text
    switch format {
    case .waybar:
      return #"{"text":""# + escaped(shown, as: .json) + #"","alt":""# + state + #"","class":[""#
        + state + #""],"tooltip":""# + escaped(tooltip, as: .pangoInJSON) + #"","percentage":0}"#
        + "\n"
    case .json:
      let error = state == "error" ? #","error":""# + escaped(tooltip, as: .json) + "\"" : ""
      return #"{"state":""# + state + #"","text":""# + escaped(shown, as: .json) + "\"" + error
        + "}\n"
    case .text:
      return shown + "\n"
    case .raw:
      return String(repeating: "0;", count: max(1, bars)) + "\n"
    }
  }

  private static func escaped(_ text: String, as dialect: UntrustedText.Dialect) -> String {
    var line = ByteLine()
    if dialect == .json {
      line.appendJSONEscaped(text.utf8)
    } else {
      UntrustedText.append(text, as: dialect, to: &line)
    }
    return String(decoding: line.bytes, as: UTF8.self)
  }
}
