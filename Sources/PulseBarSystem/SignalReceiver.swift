internal import CLinux
import Glibc

/// A `signalfd` for the daemon's (blocked) signals. Not `Sendable`: the compiler keeps it on one
/// thread at a time, the one that reads it.
package final class SignalReceiver {
  /// The signalfd, for callers that poll it beside other descriptors.
  package let descriptor: FileDescriptor

  package init() throws(Errno) {
    var set = SignalHandling.signalSet()
    let flags = Int32(SFD_CLOEXEC) | Int32(SFD_NONBLOCK)
    descriptor = FileDescriptor(
      rawValue: try valueOrErrno(retryOnInterrupt: true) { signalfd(-1, &set, flags) }.get())
  }

  deinit { descriptor.closeQuietly() }

  /// Blocks the daemon's signals in the calling thread (and every thread it starts later) and
  /// returns a receiver for them; `nil` after one line on stderr (`<command>: signalfd: …`).
  package static func blockingDaemonSignals(command: String) -> SignalReceiver? {
    SignalHandling.blockDaemonSignals()
    do {
      return try SignalReceiver()
    } catch {
      Console.error("\(command): signalfd: \(error)\n")
      return nil
    }
  }

  /// A pending signal, without waiting.
  package func poll() -> DaemonSignal? {
    var info = signalfd_siginfo()
    let size = MemoryLayout<signalfd_siginfo>.size
    let count = withUnsafeMutableBytes(of: &info) { buffer in
      (try? descriptor.read(into: buffer)) ?? 0
    }
    guard count == size else { return nil }
    switch CInt(info.ssi_signo) {
    case let number where number == SIGTERM || number == SIGINT: return .terminate(number)
    case SIGWINCH: return .resize
    case let number: return .reload(number)
    }
  }
}
