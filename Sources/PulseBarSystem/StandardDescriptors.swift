import Glibc

/// Descriptors 0, 1 and 2 when the process was started with one of them closed
/// (`pulsebar >&-`).
///
/// A closed 1 would be the next descriptor `open`, `socket` or `eventfd` returns: the config
/// file, the listening socket or an eventfd would then get every frame meant for stdout. So
/// each closed one is filled at start with `/dev/null` opened the other way round (0 for
/// writing, 1 and 2 for reading): it holds the number, and using it still fails with EBADF,
/// as a closed descriptor does, so a write to stdout is reported as the failure it is.
package enum StandardDescriptors {
  /// Fills every closed standard descriptor; returns those that were closed.
  @discardableResult
  package static func fillClosed() -> [FileDescriptor] {
    var filled: [FileDescriptor] = []
    for descriptor in [FileDescriptor.standardInput, .standardOutput, .standardError] {
      guard fcntl(descriptor.rawValue, F_GETFD) == -1, errno == EBADF else { continue }
      let flags = descriptor == .standardInput ? O_WRONLY : O_RDONLY
      // open returns the lowest free number: this one, as the lower ones are open by now.
      let opened = open("/dev/null", flags)
      if opened >= 0 && opened != descriptor.rawValue {
        dup2(opened, descriptor.rawValue)
        close(opened)
      }
      filled.append(descriptor)
    }
    return filled
  }
}
