import Glibc

/// Every setting pulsebar has, with the built-in defaults.
///
/// Loaded from the INI file by ``ConfigParser`` and then overridden by the
/// command line. `config/pulsebar.conf` lists the same keys with the same
/// defaults; a test keeps the two in step.
package struct Configuration: Sendable, Equatable {
  // MARK: [general]
  /// Bars drawn in all; in stereo half per channel.
  package var bars = 8
  /// Frames per second of audio.
  package var fps = 60
  /// Analyse a mono downmix or the left and right channels apart.
  package var channels = ChannelMode.mono
  /// The format written to stdout and to socket clients that do not ask.
  package var format = OutputFormat.text
  /// Seed of the bubbles' random generator (same seed, same bubbles).
  package var seed: UInt64 = 1

  // MARK: [input]
  /// Where audio comes from.
  package var input = InputSpec.auto
  /// Record the active MPRIS player's own streams while it plays, or always the whole output
  /// (``PlayerStreamSelection``).
  package var scope = CaptureScope.player
  /// Sample rate of raw PCM on a fifo or stdin (files carry their own).
  package var rawSampleRate = 44100
  /// Interleaved channels of raw PCM on a fifo or stdin.
  package var rawChannels = 2

  // MARK: [analysis]
  /// Lowest frequency shown, in Hz.
  package var lowCutoff: Float = 50
  /// Highest frequency shown, in Hz.
  package var highCutoff: Float = 10000
  /// Automatic gain: bars fill the range whatever the volume.
  package var autosens = true
  /// Gain in percent while autosens is off (autosens fits the gain to the music itself).
  package var sensitivity: Float = 100
  /// Peak level in dBFS below which a frame is silence, for the automatic gain and the
  /// playback state alike. −70 dBFS is about 10 steps of 16-bit audio: dither and what
  /// PipeWire makes of 16-bit silence stay below it, a quiet intro (−50 dBFS) does not.
  package var noiseFloor: Float = -70
  /// Smoothing from 0 (fast, jittery) to 1 (slow, smooth), as cava's noise_reduction.
  package var noiseReduction: Float = 0.77
  /// How far spectral flux must rise over its running mean to count as an onset.
  package var onsetThreshold: Float = 1.5

  // MARK: [output]
  /// Bar glyphs from lowest to highest for the text format.
  package var barGlyphs: [String] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
  /// The top of the raw format's range, as cava's `ascii_max_range`.
  package var rawMax = 1000
  /// The markup pulsebar itself adds to text lines (see ``Markup``). Values from outside
  /// (titles, source names) are escaped for the line's reader whatever this says.
  package var markup = Markup.none
  /// Play/pause glyph frames from pause to play (the morph picks the nearest).
  package var morphGlyphs: [String] = MorphGlyph.defaultFrames
  /// The text `pulsebar listen` shows while the daemon is unreachable, in every format that has
  /// text (waybar's `text`, the text line, json's `text`). Not empty by default: an empty
  /// waybar text hides the module (and a bar with nothing else in it), and i3blocks keeps
  /// showing the last frame. Ø (U+00D8, "nothing there") is one cell in DejaVu Sans Mono and
  /// Noto Sans Mono and in both Sans fonts, with strokes a bar draws at full colour; ⊘, the
  /// old default, is two cells in Noto Sans Mono, and ◌'s dots all but vanished there.
  package var offlineText = "Ø"
  /// The text line (and waybar's `text`), a ``Template``.
  package var text = Template.defaultText
  /// The text line while playing, paused and stopped; empty means ``text``.
  package var textPlaying = ""
  package var textPaused = ""
  package var textStopped = ""
  /// The waybar tooltip, a ``Template``; fields with no value are dropped with their separator.
  package var tooltip = Template.defaultTooltip
  /// Deprecated alias: N > 0 appends ` {title:N}` to every text template; 0 adds nothing.
  package var titleWidth = 0
  /// When the text line hides (``LineVisibility``), and after how many seconds.
  package var hideWhen = HideWhen.never
  package var hideAfter: Double = 5
  /// A scrolling field (`{title:24:scroll}`, ``Marquee``): cells a second while playing, the
  /// seconds it rests at the start of each loop, and what stands between the loops.
  package var scrollSpeed: Double = 3
  package var scrollPause: Double = 1.5
  package var scrollSeparator = " · "

  // MARK: [colors]
  /// The bars' gradient (one colour: all bars alike); empty means no colour.
  package var barColors: [RGBColor] = []
  /// The gradient runs across the bars or over their height.
  package var barColoring = BarColoring.position
  /// The play/pause glyph's colour in each state; `nil` means none.
  package var playingColor: RGBColor?
  package var pausedColor: RGBColor?
  package var stoppedColor: RGBColor?
  /// The bubbles' colour; `nil` means none.
  package var bubbleColor: RGBColor?
  /// Take the bars' gradient and the glyph's colours from the track's album art.
  package var colorsFromArt = false
  /// The bar's background, which art colours must stay readable on (`nil`: black).
  package var backgroundColor: RGBColor? = RGBColor(red: 0x22, green: 0x22, blue: 0x22)

  // MARK: [players]
  /// MPRIS players ignored and preferred (``PlayerPreference``).
  package var players = PlayerPreference()
  /// What `{player_icon}` shows for each player (``PlayerIcons``).
  package var playerIcons = PlayerIcons()

  // MARK: [lyrics]
  /// Where `Artist - Title.lrc` files are looked for after the one beside the track; empty
  /// means nowhere. A leading `~` is the home directory.
  package var lyricsDirectory = ""

  // MARK: [socket]
  /// Socket path; empty means `$XDG_RUNTIME_DIR/pulsebar.sock`.
  package var socketPath = ""
  /// Clients served at once; the next one gets `error: too many clients`.
  package var maxClients = 64

  // MARK: [scene]
  /// Seconds below the noise floor after which a playing stream counts as paused.
  package var silenceTimeout: Double = 2.0
  /// Seconds a new playback state must hold before it is shown (see ``PlaybackStateMachine``).
  package var stateDebounce: Double = 0.15
  /// Bar heights while nothing plays (the seed icon's), repeated to the bar count.
  package var restHeights: [Float] = [0.4, 0.75, 0.55, 0.95]
  /// Seconds the play/pause morph takes.
  package var morphDuration: Double = 0.25

  // MARK: [bubbles]
  /// Glyphs a bubble picks from at random: circles, one cell in DejaVu Sans Mono and Noto Sans
  /// Mono (♥ ♡ ❤ ♪, the old default, are not in Noto Sans Mono: polybar dropped them).
  package var bubbleGlyphs: [String] = ["○", "◦", "°", "•"]
  /// Bubbles alive at once.
  package var bubbleMax = 6
  /// Least seconds between two bubbles.
  package var bubbleMinInterval: Double = 0.25
  /// Seconds a bubble lives.
  package var bubbleDuration: Double = 4.0
  /// How far left a bubble may drift, in the seed's points.
  package var bubbleMaxLeft: Float = 50
  /// How far right a bubble may drift, in the seed's points.
  package var bubbleMaxRight: Float = 50
  /// How high a bubble climbs, in the seed's points.
  package var bubbleMaxHeight: Float = 150

  package init() {}

  /// The text template for `state`: its own when set, else ``text``; `title_width` appends
  /// ` {title:N}`.
  package func textTemplate(for state: PlaybackState) -> String {
    let own =
      switch state {
      case .playing: textPlaying
      case .paused: textPaused
      case .stopped: textStopped
      }
    let template = own.isEmpty ? text : own
    return titleWidth > 0 ? template + " {title:\(titleWidth)}" : template
  }

  /// ``noiseFloor`` as a linear peak amplitude (full scale = 1).
  package var noiseFloorAmplitude: Float { powf(10, noiseFloor / 20) }
}

extension String {
  /// The rest of the string after `prefix`, or `nil` when it does not start with it.
  package func dropPrefix(_ prefix: String) -> String? {
    hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
  }
}
