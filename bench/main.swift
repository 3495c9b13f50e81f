import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarDaemon
import PulseBarSystem

/// `pulsebar-bench [analysis|scene|cava|socket|picture|waybar|mpris|all]`: the project's benchmarks.
/// Each prints its figures as a table; `all` runs every one in turn.
let benches: [(name: String, run: () -> Void)] = [
  ("analysis", runAnalysisBench),
  ("scene", runSceneBench),
  ("cava", runCavaBench),
  ("socket", runSocketBench),
  ("picture", runPictureBench),
  ("waybar", runWaybarBench),
  ("mpris", runMPRISBench),
]
let arguments = Array(CommandLine.arguments.dropFirst())
let wanted = arguments.first ?? "all"
let selected = benches.filter { wanted == "all" || $0.name == wanted }
if selected.isEmpty {
  Console.error(
    "pulsebar-bench: unknown benchmark '\(wanted)' (analysis, scene, cava, socket, picture, waybar, mpris, all)\n"
  )
  exit(2)
}
for bench in selected {
  print("== \(bench.name)")
  bench.run()
  print()
}
