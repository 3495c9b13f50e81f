import Glibc
import PulseBarTestSupport
import Testing

/// The configurations users write, in the real bars: {Waybar, polybar, i3blocks} × {no
/// markup; colours with the bar's markup; a now-playing template with a gradient} × {playing,
/// paused, stopped, hidden then shown, a config error, the daemon killed} × {DejaVu, Noto},
/// then titles in every script. The bars start before the daemons. Every bar in both fonts runs at once against one set of
/// daemons, driven through the states by the fake player and signals (no bar restarts).
/// Each cell is judged from screenshots: one module width to the pixel in every state but
/// hidden, the neighbours on both sides drawn, nothing in the bar's log.
@Suite("The configurations users write, in the real bars", .serialized)
struct RealBarMatrixTests {
  static let fonts = ["DejaVu Sans Mono", "Noto Sans Mono"]
  /// Titles in the world's scripts, wide, joined, right to left, decomposed, long and empty;
  /// the template shows each in 24 cells.
  static let titles = [
    ("ASCII", "A Song"), ("CJK", "東京の夜に歌う声だ"), ("emoji", "🎵🎶🎸 Song"),
    ("ZWJ", "👩‍👩‍👧‍👦 Family"), ("percent", "%{F#f00}50%"), ("Hangul", "한국어 노래 제목"),
    ("Arabic", "أغنية الحب والسلام"), ("Hebrew", "שיר אהבה ושלום"), ("Thai", "เพลงรักสวัสดี"),
    ("Devanagari", "नमस्ते दुनिया गीत"), ("Vietnamese", "Tiếng Việt ca khúc"),
    ("Vietnamese NFD", "Tie\u{302}\u{301}ng Vie\u{323}\u{302}t ca khu\u{301}c"),
    ("skin tones", "👍🏽👋🏿 Hi"), ("flags", "🇫🇷🇯🇵 Tour"), ("mixed", "Love שיר 2024 حب end"),
    ("long", String(repeating: "abcdefghij", count: 30)), ("empty", ""),
  ]
  /// How far (px) each bar may draw a title's module from the template's width: Waybar and
  /// swaybar hold it with the snippets' `min-width` and `min_width` (a title in a narrower
  /// fallback font cannot narrow it); polybar has no such setting, so within one cell (10 px).
  /// CJK holds as the recipes say: Waybar and swaybar ask for the `pulsebar` family first,
  /// which the shipped fontconfig-cjk.conf (in every session) draws CJK at two cells in;
  /// polybar's CJK font is 1.25 times the size. polybar gets a ZWJ sequence's first emoji only.
  static let tolerance = ["waybar": 1, "i3blocks": 1, "polybar": 10]
  /// Where polybar is off by more, measured: Noto CJK draws a Hangul syllable 0.92 em (the
  /// snippet's size draws ideographs at exactly two cells), 2 px short a syllable.
  static let polybarExceptions = ["Hangul": 16]

  /// Whether every bar is installed (CI installs them); the reason when not.
  static var missing: String? {
    let tools = ["sway", "waybar", "grim", "i3blocks", "Xvfb", "polybar", "import", "sox"]
    var absent = tools.filter { !BarSession.installed($0) }
    // The fonts desktops draw CJK and emoji with (fonts-noto-cjk, fonts-noto-color-emoji).
    for font in [
      "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
      "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ] where access(font, R_OK) != 0 {
      absent.append(font)
    }
    return absent.isEmpty ? nil : "not installed: \(absent.joined(separator: ", "))"
  }

  /// What the run saw of one module: its widths per state, and what went wrong.
  struct Cell {
    var widths: [String: [Int]] = [:]
    var problems: [String] = []
    var lastShot: BarScreenshot?
  }

  @Test(
    "one width in every state, neighbours drawn, quiet logs: every bar, config and font",
    .enabled(if: missing == nil, "\(missing ?? "")"))
  func matrix() throws {
    let world = try MatrixWorld()
    var views: [MatrixView] = []
    var desktops: [AnyObject] = []
    for font in Self.fonts {
      let sway = try MatrixSway(world: world, monospace: font)
      let polybar = try MatrixPolybar(world: world, monospace: font)
      desktops += [sway, polybar]
      views += [
        MatrixView(
          name: "waybar/\(font)", screenshot: { try sway.screenshot(top: true) },
          problems: sway.waybarProblems),
        MatrixView(
          name: "i3blocks/\(font)", screenshot: { try sway.screenshot(top: false) },
          problems: sway.swaybarProblems),
        MatrixView(
          name: "polybar/\(font)", screenshot: polybar.screenshot, problems: polybar.problems),
      ]
    }
    var run = MatrixRun(views: views)
    // The bars start before the daemons (a login where the bar comes first): listen's
    // offline line is already as wide as the live line will be.
    try run.measure("before the daemon", settle: 6)
    try world.startDaemons()
    try world.startPlayer(title: Self.titles[0].1)
    try Self.drive(world, &run)
    run.judge()
    _ = desktops
  }

  /// The states, in order: each switched by the player or a signal, then measured.
  static func drive(_ world: MatrixWorld, _ run: inout MatrixRun) throws {
    #expect(world.waitForState("playing"), "the daemons never played")
    // The bars reach their first live lines.
    try run.measure("playing", settle: 6)
    world.player("status Paused")
    #expect(world.waitForState("paused"), "never paused")
    try run.measure("paused")
    world.player("status Stopped")
    #expect(world.waitForState("stopped"), "never stopped")
    try run.measure("stopped", settle: 1)
    // hide_after is 6 s of frames; under the whole parallel suite i3blocks and swaybar lag far behind.
    try run.waitHidden(timeout: 60)
    world.player("status Playing")
    #expect(world.waitForState("playing"), "never played again")
    try run.measure("shown")
    // A typo in the config file, and a reload: the daemons keep their config, the listens
    // (which read the same file) ignore a key they do not use.
    try world.appendToConfigs("[output]\ntxet = {glyph}\n")
    world.reloadDaemons()
    try run.measure("reload error")
    try world.killDaemons()
    try run.measure("offline", settle: 2)
    // Started again on the broken file, the daemons refuse: the bars stay offline.
    let errors = try world.daemonsRefuse()
    #expect(errors.allSatisfy { $0.contains("txet") }, "\(errors)")
    try run.measure("config error")
    try world.appendToConfigs(nil)
    try world.startDaemons()
    #expect(world.waitForState("playing"), "never played after the restart")
    try run.measure("restarted", settle: 3)
    for (name, title) in titles.dropFirst() {
      world.player("title \(title)")
      #expect(world.waitForState("playing", title: title), "never showed the \(name) title")
      try run.measure("title " + name, settle: 2)
    }
  }
}

/// The screenshots of one matrix run and what they show per module.
struct MatrixRun {
  let views: [MatrixView]
  /// Per view and module (`waybar/DejaVu Sans Mono/template`).
  var cells: [String: RealBarMatrixTests.Cell] = [:]
  var order: [String] = []

  init(views: [MatrixView]) {
    self.views = views
    for view in views {
      for module in MatrixModule.all {
        let key = "\(view.name)/\(module.config)"
        cells[key] = .init()
        order.append(key)
      }
    }
  }

  /// After `settle` seconds, three screenshots of every bar 0.3 s apart: each module's width.
  mutating func measure(_ state: String, settle: Double = 1.5) throws {
    usleep(UInt32(settle * 1_000_000))
    for _ in 0..<3 {
      for view in views {
        let shot = try view.screenshot()
        for module in MatrixModule.all {
          let key = "\(view.name)/\(module.config)"
          cells[key]?.lastShot = shot
          guard let box = Self.box(of: module, in: shot) else {
            cells[key]?.problems.append("\(state): a neighbour is not drawn")
            continue
          }
          cells[key]?.widths[state, default: []].append(box.count)
        }
      }
      usleep(300_000)
    }
  }

  /// Screenshots until every module takes no space (hidden), within `timeout`.
  mutating func waitHidden(timeout: Double) throws {
    let start = ChildProcess.now()
    var shown: Set<String> = []
    repeat {
      shown = []
      for view in views {
        let shot = try view.screenshot()
        for module in MatrixModule.all {
          let box = Self.box(of: module, in: shot)
          if box.map({ $0.count > 0 }) ?? true { shown.insert("\(view.name)/\(module.config)") }
        }
      }
      if shown.isEmpty { return }
      usleep(300_000)
    } while ChildProcess.now() - start < timeout
    for key in shown { cells[key]?.problems.append("hidden: the module kept its space") }
  }

  /// The module's box between its markers, on the markers' middle row.
  static func box(of module: MatrixModule, in shot: BarScreenshot) -> Range<Int>? {
    guard let rows = shot.rows(of: module.left) else { return nil }
    return shot.moduleBox(
      row: (rows.lowerBound + rows.upperBound) / 2, between: module.left, and: module.right)
  }

  /// The verdicts: per cell, one width in every state that is not hidden (titles within one
  /// cell of the playing width, see docs/WIDTHS.md), no problem seen, a quiet log.
  func judge() {
    for view in views {
      let problems = view.problems()
      #expect(problems.isEmpty, "\(view.name): the bar's log: \(problems.prefix(10))")
    }
    for key in order {
      guard let cell = cells[key] else { continue }
      let states = cell.widths.filter { !$0.key.hasPrefix("title") }
      let widths = Set(states.values.joined())
      print(
        "matrix \(key): \(cell.widths.sorted { $0.key < $1.key }.map { "\($0.key) \(Set($0.value).sorted())" }.joined(separator: ", "))"
      )
      #expect(cell.problems.isEmpty, "\(key): \(cell.problems)")
      #expect(widths.count == 1, "\(key): widths per state \(states)")
      guard key.hasSuffix("/template"), let width = widths.first else { continue }
      let bar = String(key.prefix { $0 != "/" })
      for (name, _) in RealBarMatrixTests.titles.dropFirst() {
        let tolerance =
          (bar == "polybar" ? RealBarMatrixTests.polybarExceptions[name] : nil)
          ?? RealBarMatrixTests.tolerance[bar] ?? 0
        let drawn = cell.widths["title " + name] ?? []
        #expect(
          !drawn.isEmpty && drawn.allSatisfy { abs($0 - width) <= tolerance },
          "\(key): the \(name) title drawn \(drawn) px wide, the template \(width)")
      }
    }
  }
}
