import Glibc
import PulseBarCore
import PulseBarSystem

/// `pulsebar check-config [FILE]` and `pulsebar bands`.
package enum InfoCommands {
  /// Validates a config file: `FILE: ok` and exit 0 (after a `FILE:LINE: warning: …` line on
  /// stderr for each warning), or `FILE:LINE: problem` and exit 2. When the text line's width
  /// is known (``FrameRenderer/knownWidth``) a second line says it, in cells: the number a
  /// bar's `min_width` / `min-width` is worked out from (docs/WIDTHS.md).
  /// With no FILE it checks the default path, where no file at all is fine: the defaults apply,
  /// as they do for `pulsebar run` (a FILE named on the command line must exist).
  package static func checkConfig(path: String?) -> Int32 {
    let file = path ?? ConfigLoading.defaultPath()
    do {
      guard let text = try ConfigLoading.readFile(file, required: path != nil) else {
        return Console.outputOrSayWhy("\(file): no such file; all defaults apply\n") ? 0 : 1
      }
      let parsed = try ConfigParser.read(text, file: file)
      for warning in parsed.warnings {
        Console.error("pulsebar: \(warning)\n")
      }
      var said = "\(file): ok\n"
      if let cells = FrameRenderer(format: .text, configuration: parsed.configuration).knownWidth {
        said += "\(file): the text line is \(cells) cells wide in every state\n"
      }
      return Console.outputOrSayWhy(said) ? 0 : 1
    } catch {
      Console.error("pulsebar: \(error)\n")
      return 2
    }
  }

  /// Prints each bar's lower and upper cutoff in Hz, one bar a line, in the json bar order.
  package static func bands(_ options: BandsOptions) -> Int32 {
    do {
      let configuration = try ConfigLoading.apply(
        options.overrides, to: ConfigLoading.load(path: options.configPath))
      let channels = configuration.channels.count
      let layout = try BandLayout(
        barsPerChannel: configuration.bars / channels, lowCutoff: configuration.lowCutoff,
        highCutoff: configuration.highCutoff, sizes: TransformSizes(sampleRate: options.sampleRate))
      var text = ""
      for _ in 0..<channels {
        for band in layout.bands {
          text += "\(format(band.lowerHz)) \(format(band.upperHz))\n"
        }
      }
      return Console.outputOrSayWhy(text) ? 0 : 1
    } catch {
      Console.error("pulsebar: \(error)\n")
      return 2
    }
  }

  /// Hz with one decimal.
  private static func format(_ hertz: Float) -> String {
    var line = ByteLine(capacity: 16)
    line.append(Double(hertz), decimals: 1)
    return String(decoding: line.bytes, as: UTF8.self)
  }
}
