/// Every key pulsebar's config knows, section by section.
package enum ConfigKeys {
  package static let sections = [
    "general", "input", "analysis", "output", "colors", "players", "lyrics", "socket", "scene",
    "bubbles",
  ]

  package static func setting(section: String, key: String) -> Setting? {
    all.first { $0.section == section && $0.key == key }
  }

  package static let all: [Setting] = [
    .integer("general", "bars", 1...512, \.bars, "bars drawn in all; in stereo half per channel"),
    .integer("general", "fps", 1...240, \.fps, "frames per second of audio"),
    .choice("general", "channels", \.channels, "mono downmix, or left and right apart"),
    .choice("general", "format", \.format, "text, waybar, json or raw (cava's raw ASCII)"),
    Setting(
      section: "general", key: "seed",
      help: "seed of the bubbles' randomness (same seed, same bubbles)",
      apply: { text, configuration throws(ValueError) in
        guard let value = UInt64(text) else {
          throw ValueError("expected a whole number ≥ 0, got '\(text)'")
        }
        configuration.seed = value
      }, render: { String($0.seed) }),
    Setting(
      section: "input", key: "source",
      help:
        "auto (the default sink's monitor, following changes: native PipeWire when a PipeWire core with audio sinks answers, else libpulse), pulse, pulse:NAME, pipewire, file:PATH, fifo:PATH or stdin",
      apply: { text, configuration throws(ValueError) in
        guard let input = InputSpec(parsing: text) else {
          throw ValueError(
            "expected auto, pulse, pulse:NAME, pipewire, file:PATH, fifo:PATH or stdin, got '\(text)'"
          )
        }
        configuration.input = input
      },
      render: { $0.input.description }),
    .choice(
      "input", "scope", \.scope,
      "player: while the active MPRIS player plays, its own streams alone (others' sounds do not move the bars); output: everything the default sink plays. pulse:NAME, files, fifos and stdin ignore it"
    ),
    .integer(
      "input", "raw_sample_rate", 8000...384_000, \.rawSampleRate,
      "sample rate of raw s16le PCM on a fifo or stdin"),
    .integer(
      "input", "raw_channels", 1...2, \.rawChannels,
      "interleaved channels of raw PCM on a fifo or stdin"),
    .number("analysis", "low_cutoff", 1...20000, \.lowCutoff, "lowest frequency shown, Hz"),
    .number(
      "analysis", "high_cutoff", 2...192_000, \.highCutoff,
      "highest frequency shown, Hz (at most half the sample rate)"),
    .boolean(
      "analysis", "autosens", \.autosens, "automatic gain: bars fill the range at any volume"),
    .number(
      "analysis", "sensitivity", 1...10000, \.sensitivity,
      "gain in percent while autosens is off"),
    .number(
      "analysis", "noise_floor", -120...(-20), \.noiseFloor,
      "peak level in dBFS below which audio is silence (no gain growth; counts toward paused)"),
    .number(
      "analysis", "noise_reduction", 0...0.99, \.noiseReduction,
      "0 fast and jittery … 0.99 slow and smooth (cava's)"),
    .number(
      "analysis", "onset_threshold", 1...20, \.onsetThreshold,
      "how far above its running mean spectral flux must rise to spawn a bubble"),
    .glyphs("output", "bar_glyphs", \.barGlyphs, "text bar glyphs, lowest to highest"),
    .glyphs(
      "output", "morph_glyphs", \.morphGlyphs,
      "play/pause glyph frames, pause to play (the morph shows the nearest)"),
    .integer(
      "output", "raw_max", 1...65535, \.rawMax,
      "top of the raw format's range (cava's ascii_max_range)"),
    .choice(
      "output", "markup", \.markup,
      "markup pulsebar adds: none, pango (waybar, i3blocks), polybar or ansi"),
    .text(
      "output", "offline_text", \.offlineText,
      "what `pulsebar listen` shows while the daemon is away (every format with text)"),
    .template(
      "output", "text", \.text,
      "the text line (and waybar's text): {glyph} {bars} {bubbles} {state} {player} {title} {artist} {album} {position} {length} {progress} {source} {lyric} {volume} {player_icon}; {title:20} is 20 cells, {title:20:scroll} scrolls a longer title; a line whose fields lost their values is padded to the widest since the track changed"
    ),
    .template(
      "output", "text_playing", \.textPlaying, "the text line while playing; empty means text"),
    .template(
      "output", "text_paused", \.textPaused, "the text line while paused; empty means text"),
    .template(
      "output", "text_stopped", \.textStopped, "the text line while stopped; empty means text"),
    .template(
      "output", "tooltip", \.tooltip,
      "waybar tooltip, the same fields; a field with no value drops with its separator"),
    .integer(
      "output", "title_width", 0...200, \.titleWidth,
      "deprecated: N appends ' {title:N}' to the text line; 0 adds nothing"),
    .choice(
      "output", "hide_when", \.hideWhen,
      "hide the text (waybar class 'hidden') when never, stopped or not_playing"),
    .number(
      "output", "hide_after", 0...86400, \.hideAfter,
      "seconds the hide_when state must last before the text hides"),
    .number(
      "output", "scroll_speed", 0.5...30, \.scrollSpeed,
      "cells a second a {title:N:scroll} field moves while playing (still while paused)"),
    .number(
      "output", "scroll_pause", 0...60, \.scrollPause,
      "seconds a scrolling field rests at its start before each loop"),
    .text(
      "output", "scroll_separator", \.scrollSeparator,
      "what stands between the end of a scrolling value and its start again"),
    .colors(
      "colors", "bars", \.barColors,
      "the bars' colours, a gradient (#rrggbb, …); empty means no colour (needs markup)"),
    .choice("colors", "bars_by", \.barColoring, "the bar gradient runs across position or height"),
    .color("colors", "playing", \.playingColor, "the play/pause glyph's colour while playing"),
    .color("colors", "paused", \.pausedColor, "the glyph's colour while paused"),
    .color("colors", "stopped", \.stoppedColor, "the glyph's colour while stopped"),
    .color("colors", "bubbles", \.bubbleColor, "the bubbles' colour"),
    .boolean(
      "colors", "from_art", \.colorsFromArt,
      "take the bars' gradient and the glyph's colours from the track's art (file:// or data:)"),
    .color(
      "colors", "background", \.backgroundColor,
      "the bar's background: art colours keep a 3:1 contrast with it (empty: black)"),
    .names(
      "players", "ignore", \.players.ignore,
      "MPRIS players never shown (bus names after org.mpris.MediaPlayer2., as prefixes)"),
    .names(
      "players", "prefer", \.players.prefer,
      "players picked first when several play, best first"),
    PlayerIcons.iconsSetting,
    PlayerIcons.fallbackSetting,
    .text(
      "lyrics", "directory", \.lyricsDirectory,
      "where Artist - Title.lrc files are looked for when the track has no .lrc beside it (then the player's xesam:asText); empty means nowhere, ~ is home"
    ),
    Setting(
      section: "socket", key: "path",
      help:
        "socket path, absolute and at most 107 bytes; empty means $XDG_RUNTIME_DIR/pulsebar.sock",
      apply: { text, configuration throws(ValueError) in
        if let problem = SocketPathRule.problem(text) { throw ValueError(problem) }
        configuration.socketPath = text
      }, render: { quotedIfSpaced($0.socketPath) }),
    .integer(
      "socket", "max_clients", 1...1024, \.maxClients,
      "clients served at once; the next gets 'error: too many clients'"),
    .number(
      "scene", "silence_timeout", 0.1...60, \.silenceTimeout,
      "seconds below the noise floor before playing counts as paused"),
    .number(
      "scene", "state_debounce", 0...5, \.stateDebounce,
      "seconds a new playback state must hold before it shows (sound starting shows at once)"),
    Setting(
      section: "scene", key: "rest_heights",
      help: "bar heights (0…1) while nothing plays, repeated to the bar count",
      apply: { text, configuration throws(ValueError) in
        let heights = try Setting.commaList(
          text, "expected numbers from 0 to 1 separated by commas"
        ) {
          Float($0).flatMap { (0...1).contains($0) ? $0 : nil }
        }
        guard !heights.isEmpty else { throw ValueError("needs at least one height") }
        configuration.restHeights = heights
      },
      render: { $0.restHeights.map(\.formattedSetting).joined(separator: ", ") }),
    .number(
      "scene", "morph_duration", 0...5, \.morphDuration, "seconds the play/pause morph takes"),
    .glyphs("bubbles", "glyphs", \.bubbleGlyphs, "glyphs a bubble picks from at random"),
    .integer("bubbles", "max", 0...64, \.bubbleMax, "bubbles alive at once (0 turns them off)"),
    .number(
      "bubbles", "min_interval", 0...10, \.bubbleMinInterval, "least seconds between two bubbles"),
    .number("bubbles", "duration", 0.5...30, \.bubbleDuration, "seconds a bubble lives"),
    .number(
      "bubbles", "max_left", 0...10000, \.bubbleMaxLeft,
      "how far left a bubble drifts (the seed's points)"),
    .number("bubbles", "max_right", 0...10000, \.bubbleMaxRight, "how far right a bubble drifts"),
    .number("bubbles", "max_height", 1...10000, \.bubbleMaxHeight, "how high a bubble climbs"),
  ]
}
