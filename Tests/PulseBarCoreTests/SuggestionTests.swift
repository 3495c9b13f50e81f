import Testing

@testable import PulseBarCore

/// "Did you mean": the nearest known word within 1 edit (up to 4 characters) or 2, a swap of
/// neighbours counting as one, and nothing for a word unlike any.
@Suite struct SuggestionTests {
  static let commands = ["run", "listen", "status", "ctl", "bands", "check-config", "help"]

  @Test(arguments: [
    ("lisen", "listen"), ("lsiten", "listen"), ("stauts", "status"), ("satus", "status"),
    ("bnads", "bands"), ("check-cofnig", "check-config"), ("rnu", "run"), ("LISTEN", "listen"),
  ])
  func nearCommands(typed: String, meant: String) {
    #expect(Suggestion.nearest(to: typed, among: Self.commands) == meant)
  }

  @Test(arguments: ["xyz", "stop", "r", "listening-now", "", "run"])
  func nothingNearEnough(typed: String) {
    #expect(Suggestion.nearest(to: typed, among: Self.commands) == nil)
  }

  @Test func optionsAndKeys() {
    #expect(Suggestion.nearest(to: "--bras", among: ["--bars", "--fps", "--format"]) == "--bars")
    #expect(Suggestion.nearest(to: "noise_flor", among: ["noise_floor", "fps"]) == "noise_floor")
    #expect(
      Suggestion.appending(to: "unknown key 'fsp'", for: "fsp", among: ["fps", "bars"])
        == "unknown key 'fsp'; did you mean 'fps'?")
    #expect(Suggestion.appending(to: "m", for: "zzz", among: ["fps"]) == "m")
  }

  @Test func distances() {
    func distance(_ a: String, _ b: String) -> Int {
      Suggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }
    #expect(distance("", "abc") == 3 && distance("abc", "") == 3)
    #expect(distance("ab", "ba") == 1 && distance("kitten", "sitting") == 3)
    #expect(distance("café", "cafe") == 1)
  }
}
