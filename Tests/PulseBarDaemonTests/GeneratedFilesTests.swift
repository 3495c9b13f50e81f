import Glibc
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// The man page and the shell completions are generated from the option table and checked in;
/// the checked-in files are the generated text exactly, and they work in the programs that read
/// them. Re-record on purpose with `make generated` (`PULSEBAR_RECORD=1`).
@Suite struct GeneratedFilesTests {
  /// True when `program` is on the usual paths.
  static func installed(_ program: String) -> Bool {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { access($0 + program, X_OK) == 0 }
  }

  /// Compares `path` (relative to the package root) with `expected`; writes it first when
  /// `PULSEBAR_RECORD` is set.
  static func expectReference(_ path: String, _ expected: String) throws {
    let full = PackageRoot.path + "/" + path
    if getenv("PULSEBAR_RECORD") != nil { try writeTextFile(full, expected) }
    let shipped = try readTextFile(full)
    #expect(shipped == expected, "\(path) is stale: run make generated")
  }

  @Test func manPageIsTheReference() throws {
    try Self.expectReference("man/pulsebar.1", ManPage.render())
  }

  @Test(arguments: ShellCompletion.Shell.allCases)
  func completionIsTheReference(shell: ShellCompletion.Shell) throws {
    try Self.expectReference("completions/" + shell.fileName, ShellCompletion.render(shell))
  }

  /// `man -l` renders the page without a warning, and every option of every command is in it
  /// (in a UTF-8 locale, where an unescaped `-` would turn into a hyphen and not match).
  /// man-db is in the test stack (`make test-deps`), so it is required, not skipped.
  @Test func manPageRendersEveryOption() throws {
    try #require(Self.installed("man"), "man is missing: apt install man-db (make test-deps)")
    let child = try ChildProcess(
      "man", ["--warnings", "-l", PackageRoot.path + "/man/pulsebar.1"],
      environment: ["LC_ALL": "C.UTF-8", "MANWIDTH": "120", "MANPAGER": "cat", "PAGER": "cat"])
    var lines: [String] = []
    while let line = child.readLine(timeout: 10) { lines.append(line) }
    #expect(try child.waitForExit(timeout: 10) == 0, "\(child.standardError)")
    #expect(child.standardError.isEmpty, "roff warnings: \(child.standardError)")
    let page = lines.joined(separator: "\n")
    #expect(page.contains("PULSEBAR(1)"))
    let options = CommandTable.commands.flatMap(\.options) + CommandTable.general
    for option in options {
      for name in [option.short, option.name].compactMap({ $0 }) {
        #expect(page.contains(name), "\(name) is not in the rendered page")
      }
    }
    for command in CommandTable.commands {
      #expect(page.contains("pulsebar \(command.name)") || command.isDefault, "\(command.name)")
    }
    for section in ["SYNOPSIS", "OPTIONS", "FILES", "EXIT STATUS", "EXAMPLES"] {
      #expect(lines.contains(section), "no \(section) section")
    }
  }

  /// What `_pulsebar` offers for the words `line` (the last one being completed).
  static func bashCompletions(_ words: [String]) throws -> [String] {
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let script =
      "source \(PackageRoot.path)/completions/pulsebar.bash; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _pulsebar; printf '%s\\n' \"${COMPREPLY[@]}\""
    let child = try ChildProcess("bash", ["--norc", "--noprofile", "-c", script])
    var lines: [String] = []
    while let line = child.readLine(timeout: 10) { lines.append(line) }
    #expect(try child.waitForExit(timeout: 10) == 0, "\(child.standardError)")
    #expect(child.standardError.isEmpty, "\(child.standardError)")
    return lines.filter { !$0.isEmpty }
  }

  @Test func bashCompletesCommandsOptionsAndValues() throws {
    #expect(try Self.bashCompletions(["pulsebar", "--fo"]) == ["--format", "--foreground"])
    #expect(try Self.bashCompletions(["pulsebar", "li"]) == ["listen"])
    #expect(try Self.bashCompletions(["pulsebar", "listen", "--s"]) == ["--socket"])
    #expect(try Self.bashCompletions(["pulsebar", "bands", "--r"]) == ["--rate"])
    #expect(try Self.bashCompletions(["pulsebar", "--format", "w"]) == ["waybar"])
    #expect(
      try Self.bashCompletions(["pulsebar", "run", "--channels", "="]) == ["mono", "stereo"])
    #expect(try Self.bashCompletions(["pulsebar", "--format", "=", "j"]) == ["json"])
    #expect(try Self.bashCompletions(["pulsebar", "--bars", ""]).isEmpty)
    #expect(try Self.bashCompletions(["pulsebar", "help", "che"]) == ["check-config"])
    #expect(try Self.bashCompletions(["pulsebar", "-V"]) == ["-V"])
    #expect(try Self.bashCompletions(["pulsebar", "run", "--ver"]) == ["--verbose"])
    // ctl's actions as its first operand, its options after.
    #expect(try Self.bashCompletions(["pulsebar", "ctl", "vo"]) == ["volume"])
    #expect(
      try Self.bashCompletions(["pulsebar", "ctl", "p"]) == [
        "play-pause", "play", "pause", "previous", "position",
      ])
    #expect(try Self.bashCompletions(["pulsebar", "ctl", "seek", "--p"]) == ["--player"])
    // A file name for --config.
    let files = try Self.bashCompletions(["pulsebar", "--config", PackageRoot.path + "/Package.sw"])
    #expect(files == [PackageRoot.path + "/Package.swift"])
  }

  @Test(.enabled(if: installed("zsh"), "zsh is not installed: its completion is not checked"))
  func zshCompletionParses() throws {
    let child = try ChildProcess("zsh", ["-n", PackageRoot.path + "/completions/_pulsebar"])
    #expect(try child.waitForExit(timeout: 10) == 0, "\(child.standardError)")
    #expect(child.standardError.isEmpty, "\(child.standardError)")
  }

  /// fish parses the file, and completes options, values and commands from it.
  @Test(.enabled(if: installed("fish"), "fish is not installed: its completion is not checked"))
  func fishCompletionParsesAndCompletes() throws {
    let file = PackageRoot.path + "/completions/pulsebar.fish"
    let parse = try ChildProcess("fish", ["-n", file])
    #expect(try parse.waitForExit(timeout: 10) == 0, "\(parse.standardError)")
    func complete(_ line: String) throws -> [String] {
      let child = try ChildProcess(
        "fish", ["--no-config", "-c", "source \(file); complete -C '\(line)'"])
      var lines: [String] = []
      while let line = child.readLine(timeout: 10) { lines.append(line) }
      #expect(try child.waitForExit(timeout: 10) == 0, "\(child.standardError)")
      return lines.map { String($0.split(separator: "\t").first ?? "") }
    }
    #expect(try complete("pulsebar --fo").sorted() == ["--foreground", "--format"])
    #expect(try complete("pulsebar listen --s") == ["--socket"])
    #expect(try complete("pulsebar --format ").sorted() == ["json", "raw", "text", "waybar"])
    #expect(try complete("pulsebar li") == ["listen"])
    #expect(try complete("pulsebar ctl se") == ["seek"])
    #expect(try complete("pulsebar ctl volume se").isEmpty, "one action per line")
  }
}
