import Foundation
import Testing

@testable import PulseBarCore

/// Hostile titles through every field of a full template, in every format and markup, with
/// colour on: each line read as its consumer reads it.
@Suite struct HostileTemplateTests {
  static let template =
    "{glyph} {bars} {bubbles} {state} {player} {title} [{artist}] {album} {position}/{length} "
    + "{progress:5} {source} {title:20}"

  static func line(_ format: OutputFormat, _ markup: Markup, title: String) -> String? {
    let player = NowPlaying(
      player: "evil%{A1:x:}", status: .playing, title: title, artist: "<b>\u{1B}[1m&",
      album: "%{F#f00}\u{202E}", length: 100, position: 5_000_000)
    return RenderTests.line(format, bars: [0.2, 0.5, 0.9], nowPlaying: player) {
      $0.markup = markup
      $0.text = template
      $0.tooltip = template
      $0.barColors = [RGBColor(red: 1, green: 2, blue: 3), RGBColor(red: 200, green: 0, blue: 9)]
      $0.playingColor = RGBColor(red: 9, green: 9, blue: 9)
      $0.bubbleColor = RGBColor(red: 7, green: 7, blue: 7)
    }
  }

  @Test(arguments: HostileTextTests.configurations)
  func everyDialectReadsTitlesAsText(format: OutputFormat, markup: Markup) throws {
    for title in HostileTextTests.hostileTitles {
      let line = try #require(Self.line(format, markup, title: title))
      let context = "\(format) \(markup) \(title.prefix(30).debugDescription)"
      #expect(line.utf8.count < 16384, "\(context)")
      #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"), "\(context)")
      var visible: [String] = []
      switch (format, markup) {
      case (.json, _):
        let object = try HostileTextTests.jsonObject(line)
        #expect(object["title"] as? String == UntrustedText.capped(title), "\(context)")
        continue
      case (.waybar, _):
        let object = try HostileTextTests.jsonObject(line)
        for key in ["text", "tooltip"] {
          visible.append(try PangoReader.text(try #require(object[key] as? String)))
        }
      case (_, .pango):
        visible.append(try PangoReader.text(String(line.dropLast())))
      case (_, .polybar):
        visible.append(PolybarReader.text(String(line.dropLast())))
      case (_, .ansi):
        visible.append(AnsiReader.text(String(line.dropLast())))
      default:
        // Plain text: polybar may read it, and draws nothing for its empty tag.
        visible.append(PolybarReader.text(String(line.dropLast())))
      }
      if format == .text && markup != .ansi && markup != .pango {
        // polybar may read it: the only tags are its empty one and pulsebar's colours.
        for tag in UntrustedText.polybarTags(in: line) {
          #expect(tag == "O0" || (markup == .polybar && tag.hasPrefix("F")), "\(context)")
        }
      }
      for text in visible {
        #expect(HostileTextTests.controls(in: text).isEmpty, "\(context): \(text.prefix(200))")
        let shown = text.filter { $0 != " " }
        let title = UntrustedText.sanitized(title).prefix(15).filter { $0 != " " }
        #expect(shown.contains(title), "\(context)")
        #expect(shown.contains("<b>[1m&"), "\(context): the artist as text")
      }
    }
  }
}
