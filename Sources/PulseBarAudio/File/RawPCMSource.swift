import Glibc
import PulseBarCore
import PulseBarSystem

/// Raw signed 16-bit little-endian PCM from a FIFO (MPD's `fifo` output, as
/// cava reads it) or from standard input, at the configured rate and channels.
///
/// Paced by arrival. A FIFO is opened read-write so that a writer that goes
/// away and comes back (MPD restarting playback) is not an end of file; stdin
/// ends the stream at its end of file.
package final class RawPCMSource: CaptureSource {
  /// Where the PCM comes from.
  package enum Origin: Sendable, Equatable {
    case fifo(path: String)
    case standardInput
  }

  private let origin: Origin
  private let inputChannels: Int
  private let stopSignal = StopSignal()

  package init(origin: Origin, inputChannels: Int) {
    self.origin = origin
    self.inputChannels = inputChannels
  }

  /// Opens the FIFO up front so a missing path fails at start-up with a clear error.
  package static func openFIFO(_ path: String) throws(AudioFileError) -> FileDescriptor {
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw AudioFileError(path: path, message: String(cString: strerror(errno)))
    }
    guard (status.st_mode & S_IFMT) == S_IFIFO else {
      throw AudioFileError(path: path, message: "not a FIFO (make one with mkfifo)")
    }
    do {
      return try FileDescriptor.open(path, O_RDWR | O_NONBLOCK)
    } catch {
      throw AudioFileError(path: path, message: error.description)
    }
  }

  package func start(into buffer: CaptureBuffer) {
    let descriptor: FileDescriptor
    let name: String
    switch origin {
    case .fifo(let path):
      guard let opened = try? Self.openFIFO(path) else {
        buffer.updateStatus { $0.endOfStream = true }
        return
      }
      descriptor = opened
      name = path
    case .standardInput:
      descriptor = .standardInput
      name = "stdin"
    }
    let inputChannels = inputChannels
    let stopSignal = stopSignal
    let isFIFO = origin != .standardInput
    buffer.updateStatus {
      $0.connected = true
      $0.sourceName = name
      $0.activity = .running
    }
    PosixThread.spawn {
      var decoder = RawPCMDecoder(inputChannels: inputChannels, outputChannels: buffer.channels)
      while stopSignal.waitReadable(descriptor) {
        var failure: Errno?
        let count = decoder.fill { space in
          do throws(Errno) {
            return try descriptor.read(into: space)
          } catch {
            failure = error
            return -1
          }
        }
        if let failure {
          if failure == .wouldBlock { continue }
          break
        }
        if count == 0 { break }
        // The buffer's channel count at each read: a reload may change it mid-stream.
        let channels = buffer.channels
        decoder.outputChannels = channels
        decoder.decode { buffer.write($0, channels: channels) }
      }
      if isFIFO { descriptor.closeQuietly() }
      buffer.updateStatus {
        $0.activity = .none
        $0.endOfStream = true
      }
    }.detach()
  }

  package func stop() { stopSignal.request() }
}
