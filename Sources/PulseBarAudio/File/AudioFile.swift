internal import CAudioLibraries
internal import CSndFile
import Glibc

/// An audio file read with libsndfile (WAV in every PCM and float width, FLAC,
/// Ogg, AIFF, …), delivered as interleaved `Float` frames mixed to the
/// analysis channel count.
///
/// Malformed files are refused up front: `sf_open` failures, files with no
/// frames, and files whose header promises more audio than the file holds
/// (libsndfile reads those quietly; we report them as truncated).
package final class AudioFile {
  package let path: String
  /// Sample rate of the file.
  package let sampleRate: Int
  /// Channels in the file.
  package let fileChannels: Int
  /// Channels delivered (1 = mono downmix, 2 = left/right; a mono file is duplicated).
  package let outputChannels: Int
  /// Sample frames in the file.
  package let frameCount: Int
  private let handle: OpaquePointer
  private var scratch: [Float] = []

  package init(path: String, outputChannels: Int) throws(AudioFileError) {
    self.path = path
    var info = SF_INFO()
    guard access(path, R_OK) == 0 else {
      throw AudioFileError(path: path, message: String(cString: strerror(errno)))
    }
    var status = stat()
    if stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
      throw AudioFileError(path: path, message: "is a directory, not an audio file")
    }
    // libsndfile is opened here, not linked (CAudioLibraries): live capture never maps it.
    if let error = pulsebar_open_libsndfile() {
      throw AudioFileError(
        path: path, message: "\(String(cString: error)); install libsndfile1 to read audio files")
    }
    guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
      let reason = String(cString: sf_strerror(nil))
      throw AudioFileError(path: path, message: "not a readable audio file (\(reason))")
    }
    // Checked while `handle` is still a local: a class whose stored properties are all set
    // runs `deinit` when its initializer throws, and that would close the handle twice.
    if let problem = Self.problem(handle: handle, info: info, path: path) {
      sf_close(handle)
      throw AudioFileError(path: path, message: problem)
    }
    self.handle = handle
    sampleRate = Int(info.samplerate)
    fileChannels = Int(info.channels)
    frameCount = Int(info.frames)
    self.outputChannels = outputChannels
  }

  deinit { sf_close(handle) }

  /// What is wrong with an opened file, or `nil`.
  private static func problem(handle: OpaquePointer, info: SF_INFO, path: String) -> String? {
    if info.channels < 1 || info.samplerate < 1 {
      return "no audio: \(info.channels) channels at \(info.samplerate) Hz"
    }
    if info.samplerate < 8000 || info.samplerate > 384_000 {
      return "sample rate \(info.samplerate) Hz is not supported (8000…384000)"
    }
    if info.frames <= 0 { return "holds no audio frames" }
    // libsndfile notes header/length mismatches in its log instead of failing.
    var log = [CChar](repeating: 0, count: 4096)
    _ = sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
    let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    for line in text.split(separator: "\n") {
      let lower = line.lowercased()
      if lower.contains("should be") || lower.contains("truncated")
        || lower.contains("length in header") || lower.contains("file size")
      {
        return "malformed or truncated (\(line.trimmingWhitespace()))"
      }
    }
    return nil
  }

  /// Reads up to `frames` sample frames into `destination` (`frames × channels` floats, mixed
  /// to `channels`, ``outputChannels`` when `nil`); returns the frames read, 0 at end of file.
  /// A paced file passes the capture buffer's current channel count, which a reload may change.
  package func read(
    frames: Int, into destination: UnsafeMutableBufferPointer<Float>, channels: Int? = nil
  ) -> Int {
    let needed = frames * fileChannels
    if scratch.count < needed { scratch = [Float](repeating: 0, count: needed) }
    let read = scratch.withUnsafeMutableBufferPointer { buffer in
      Int(sf_readf_float(handle, buffer.baseAddress, sf_count_t(frames)))
    }
    guard read > 0 else { return 0 }
    scratch.withUnsafeBufferPointer { source in
      ChannelMixer.mix(
        source, frames: read, from: fileChannels, to: channels ?? outputChannels,
        into: destination)
    }
    return read
  }
}
