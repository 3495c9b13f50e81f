import PulseBarCore
import PulseBarDaemon

/// libFuzzer entry: the input is `pulsebar`'s arguments separated by NUL bytes. Whatever the
/// parser accepts, its config overrides are applied over the defaults as `run` and `bands` do;
/// every refusal must come with a message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let arguments =
    size == 0
    ? []
    : bytes.split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
  let overrides: [Override]
  do {
    switch try CommandLineParser.parse(arguments) {
    case .run(let options): overrides = options.overrides
    case .bands(let options): overrides = options.overrides
    case .listen(let options):
      precondition(options.bars.map { (1...512).contains($0) } ?? true, "listen: bars out of range")
      return 0
    case .checkConfig, .help, .version, .control: return 0
    }
  } catch {
    precondition(!error.message.isEmpty, "a usage error without a message")
    return 0
  }
  do {
    let configuration = try ConfigLoading.apply(overrides, to: Configuration())
    precondition(configuration.crossFieldProblem() == nil, "overrides left a cross-field problem")
  } catch {
    precondition(!error.message.isEmpty, "an override error without a message")
  }
  return 0
}
