import PulseBarCore
import PulseBarSystem

/// `pulsebar status [--json] [--socket PATH]`: asks the running daemon over its socket (the
/// line `status`, or `status json`) and prints its answer (``DaemonStatus``). Exit 0 with an
/// answer; 1 and one line on stderr saying how to start a daemon when none listens, and when
/// the daemon does not answer or predates `status`. The answer is printed with its controls
/// escaped (``MessageEscaping``): the socket may be anyone's.
package enum StatusCommand {
  /// How long the daemon may take to answer (it answers with its next frame, at once).
  static let replyTimeoutMilliseconds: Int32 = 2000
  /// The most of an answer that is read.
  static let maxReply = 65536

  package static func run(_ options: StatusOptions) -> Int32 {
    var configured = options.socketPath ?? ""
    if options.socketPath == nil, let configuration = try? ConfigLoading.load(path: nil) {
      configured = configuration.socketPath
    }
    let path = UnixSocket.defaultPath(configured: configured)
    let socket: FileDescriptor
    do {
      socket = try UnixSocket.connect(path: path)
    } catch {
      Console.error(
        "pulsebar status: no daemon at \(path) (\(error)); \(DaemonHints.start)\n")
      return 1
    }
    defer { socket.closeQuietly() }
    let reply = ask(socket, options.json ? "status json\n" : "status\n")
    guard !reply.isEmpty else {
      Console.error("pulsebar status: the daemon at \(path) did not answer within 2 s\n")
      return 1
    }
    if reply.hasPrefix("error: ") {
      Console.error(
        "pulsebar status: the daemon at \(path) does not know `status` (it is older than this pulsebar; restart it): \(reply)"
      )
      return 1
    }
    // What a socket sends is escaped as messages are: a foreign one could send escape sequences.
    return Console.output(MessageEscaping.escapedLines(reply)) ? 0 : 1
  }

  /// Sends `request` and reads the answer until the daemon closes (or the timeout).
  private static func ask(_ socket: FileDescriptor, _ request: String) -> String {
    var request = request
    let sent = request.withUTF8 { (try? socket.writeAll(UnsafeRawBufferPointer($0))) != nil }
    guard sent else { return "" }
    var reply: [UInt8] = []
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    defer { chunk.deallocate() }
    let end = monotonicSeconds() + Double(replyTimeoutMilliseconds) / 1000
    while reply.count < maxReply {
      let left = Int32(max(0, (end - monotonicSeconds()) * 1000))
      guard !socket.wait(for: .readable, timeoutMilliseconds: left).isEmpty,
        let count = try? socket.read(into: chunk), count > 0
      else { break }
      reply.append(contentsOf: chunk.prefix(count))
    }
    return String(decoding: reply, as: UTF8.self)
  }
}
