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
      let bytesPerFrame = 2 * inputChannels
      var bytes = [UInt8](repeating: 0, count: 16384 - 16384 % bytesPerFrame + bytesPerFrame)
      var pending = 0
      // One read holds at most `bytes.count / bytesPerFrame` frames; mixed to the analysis
      // channel count they may take more floats than they came in (mono PCM, stereo analysis).
      let maximumFrames = bytes.count / bytesPerFrame
      var samples = [Float](repeating: 0, count: maximumFrames * inputChannels)
      var mixed = [Float](repeating: 0, count: maximumFrames * CaptureFormat.maxChannels)
      reading: while stopSignal.waitReadable(descriptor) {
        let result = bytes.withUnsafeMutableBytes { raw in
          Result { () throws(Errno) in
            try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[pending...]))
          }
        }
        let count: Int
        switch result {
        case .success(let read): count = read
        case .failure(.wouldBlock): continue
        case .failure: break reading
        }
        if count == 0 { break }
        pending += count
        let frames = pending / bytesPerFrame
        guard frames > 0 else { continue }
        for index in 0..<(frames * inputChannels) {
          let value = Int16(
            bitPattern: UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8)
          samples[index] = Float(value) / 32768
        }
        // The buffer's channel count at each read: a reload may change it mid-stream, and the
        // bytes already read (a partial frame included) carry on at the new count.
        let outputChannels = buffer.channels
        samples.withUnsafeBufferPointer { source in
          mixed.withUnsafeMutableBufferPointer { destination in
            ChannelMixer.mix(
              source, frames: frames, from: inputChannels, to: outputChannels, into: destination)
            buffer.write(
              UnsafeBufferPointer(rebasing: destination[..<(frames * outputChannels)]),
              channels: outputChannels)
          }
        }
        let used = frames * bytesPerFrame
        bytes.withUnsafeMutableBytes { raw in
          raw.baseAddress!.copyMemory(from: raw.baseAddress! + used, byteCount: pending - used)
        }
        pending -= used
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
