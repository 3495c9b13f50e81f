internal import CLinux
import Glibc

/// A terminal's saved modes while it is in raw keyboard mode; ``restore()`` puts them back.
package struct RawTerminalMode {
  private let descriptor: FileDescriptor
  private let saved: termios

  /// Puts `descriptor` in raw mode (no line buffering, no echo, Ctrl-C read as a byte, reads
  /// that return at once); `nil` when it is not a terminal.
  package init?(_ descriptor: FileDescriptor) {
    var modes = termios()
    guard descriptor.isTerminal, tcgetattr(descriptor.rawValue, &modes) == 0 else { return nil }
    self.descriptor = descriptor
    saved = modes
    modes.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
    withUnsafeMutableBytes(of: &modes.c_cc) { controls in
      controls[Int(VMIN)] = 0
      controls[Int(VTIME)] = 0
    }
    _ = tcsetattr(descriptor.rawValue, TCSANOW, &modes)
  }

  /// Restores the modes saved on entry.
  package func restore() {
    var modes = saved
    _ = tcsetattr(descriptor.rawValue, TCSANOW, &modes)
  }
}
