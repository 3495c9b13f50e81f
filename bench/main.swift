import Glibc
import PulseBarCore
import PulseBarDaemon
import PulseBarSystem

/// `pulsebar-bench [analysis|scene|cava|desktop|socket|picture|waybar|mpris|player|art|all]`: the project's benchmarks.
/// Each prints its figures as a table; `all` runs every one in turn. `desktop [pulse|pipewire]`
/// runs the desktop bench under one audio server only; `waybar-setup [pulse|pipewire]
/// [PULSEBAR [BEFORE]]` only its last part, the Waybar setup beside cava (not part of `all`:
/// `desktop` runs it).
/// `pulsebar-bench soak [--minutes N]` is the long-running soak (10 minutes by default).
let benches: [(name: String, run: () -> Void)] = [
  ("analysis", runAnalysisBench),
  ("scene", runSceneBench),
  ("cava", runCavaBench),
  ("desktop", runDesktopBench),
  ("socket", runSocketBench),
  ("picture", runPictureBench),
  ("waybar", runWaybarBench),
  ("mpris", runMPRISBench),
  ("player", runPlayerBench),
  ("art", runArtBench),
]
let arguments = Array(CommandLine.arguments.dropFirst())
let wanted = arguments.first ?? "all"
// The soak runs for minutes, so `all` leaves it out: `pulsebar-bench soak [--minutes N]`.
if wanted == "waybar-setup" {
  print("== waybar-setup")
  runWaybarSetupBench()
  exit(0)
}
if wanted == "soak" {
  var minutes = 10.0
  if arguments.count == 3, arguments[1] == "--minutes", let value = Double(arguments[2]), value > 0
  {
    minutes = value
  } else if arguments.count != 1 {
    Console.error("usage: pulsebar-bench soak [--minutes N]\n")
    exit(2)
  }
  print("== soak")
  exit(runSoakBench(minutes: minutes) ? 0 : 1)
}
let selected = benches.filter { wanted == "all" || $0.name == wanted }
if selected.isEmpty {
  Console.error(
    "pulsebar-bench: unknown benchmark '\(wanted)' (analysis, scene, cava, desktop, socket, picture, waybar, mpris, player, art, all)\n"
  )
  exit(2)
}
for bench in selected {
  print("== \(bench.name)")
  bench.run()
  print()
}
