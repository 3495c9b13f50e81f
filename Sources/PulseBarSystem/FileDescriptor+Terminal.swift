internal import CLinux
import Glibc

/// Terminal control on a descriptor: whether it is one and its size (raw keyboard mode is
/// ``RawTerminalMode``).
extension FileDescriptor {
  /// True when the descriptor is a terminal.
  package var isTerminal: Bool { isatty(rawValue) != 0 }

  /// The terminal's size in cells, or `nil` when it cannot say (not a terminal, zero size).
  package func terminalSize() -> (rows: Int, columns: Int)? {
    var size = winsize()
    guard ioctl(rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else {
      return nil
    }
    return (Int(size.ws_row), Int(size.ws_col))
  }
}
