import Glibc
import PulseBarCore
import PulseBarDaemon
import PulseBarSystem

StandardDescriptors.fillClosed()
SignalHandling.ignoreBrokenPipe()
SignalHandling.ignoreStraySignals()
let status: Int32
switch Result(catching: { () throws(UsageError) -> Command in
  try CommandLineParser.parse(Array(CommandLine.arguments.dropFirst()))
}) {
case .failure(let error):
  Console.error("pulsebar: \(error.message)\n")
  status = 2
case .success(.help(let name)):
  let text = name.flatMap(CommandTable.command(named:)).map(HelpText.command) ?? HelpText.full()
  status = Console.outputOrSayWhy(text) ? 0 : 1
case .success(.version):
  status = Console.outputOrSayWhy("pulsebar \(CommandTable.version)\n") ? 0 : 1
case .success(.checkConfig(let path)):
  status = InfoCommands.checkConfig(path: path)
case .success(.bands(let options)):
  status = InfoCommands.bands(options)
case .success(.run(let options)):
  status = RunCommand.run(options)
case .success(.listen(let options)):
  status = ListenCommand.run(options)
case .success(.overlay(let options)):
  status = OverlayCommand.run(options)
case .success(.control(let options)):
  status = ControlCommand.run(options)
case .success(.status(let options)):
  status = StatusCommand.run(options)
}
exit(status)
