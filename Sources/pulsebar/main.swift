import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarDaemon
import PulseBarSystem

/// The version `pulsebar --version` prints.
let version = "0.1.0"

let status: Int32
switch Result(catching: { () throws(UsageError) -> Command in
  try CommandLineParser.parse(Array(CommandLine.arguments.dropFirst()))
}) {
case .failure(let error):
  Console.error("pulsebar: \(error.message)\n")
  status = 2
case .success(.help):
  Console.output(CommandLineParser.usage + "\n")
  status = 0
case .success(.version):
  Console.output("pulsebar \(version)\n")
  status = 0
case .success(.checkConfig(let path)):
  status = InfoCommands.checkConfig(path: path)
case .success(.bands(let options)):
  status = InfoCommands.bands(options)
case .success(.run(let options)):
  status = RunCommand.run(options)
case .success(.listen(let options)):
  status = ListenCommand.run(options)
}
exit(status)
