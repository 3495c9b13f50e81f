import Glibc
import PulseBarAudio

/// libFuzzer entry: the input is an audio file (libsndfile guesses the format from its bytes).
/// It is written to a scratch file and opened as `pulsebar --input file:` does; a file
/// `AudioFile` accepts is read to its end in reads of uneven sizes, mixed to mono (odd input
/// sizes) or stereo (even), into buffers exactly as large as each read asks for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudioFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let path = ScratchFile.shared.replaceContents(
    with: UnsafeRawBufferPointer(start: data, count: size))
  guard let file = try? AudioFile(path: path, outputChannels: size % 2 == 0 ? 2 : 1) else {
    return 0
  }
  precondition(file.sampleRate >= 8000 && file.fileChannels >= 1 && file.frameCount > 0)
  let sizes = [1, 7, 256, 735, 4096]
  var total = 0
  for index in 0... {
    let frames = sizes[index % sizes.count]
    let destination = UnsafeMutableBufferPointer<Float>.allocate(
      capacity: frames * file.outputChannels)
    defer { destination.deallocate() }
    let read = file.read(frames: frames, into: destination)
    precondition(read >= 0 && read <= frames, "read \(read) of \(frames) frames")
    if read == 0 { break }
    total += read
    // The input is at most libFuzzer's -max_len: no file this small holds a million frames
    // (libsndfile does not invent audio past the end of the data).
    precondition(total <= 1 << 20, "more frames than the file can hold")
  }
  return 0
}

/// The one file every input is written to (in `$TMPDIR` or /tmp), removed at exit.
private final class ScratchFile: Sendable {
  static let shared = ScratchFile()
  let path: String
  private let descriptor: Int32

  private init() {
    var template = Array(
      ((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/pulsebar-fuzz-XXXXXX")
        .utf8CString)
    descriptor = mkstemp(&template)
    precondition(descriptor >= 0, "mkstemp: \(String(cString: strerror(errno)))")
    path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    atexit { unlink(ScratchFile.shared.path) }
  }

  /// Replaces the file's bytes with `bytes`; returns its path.
  func replaceContents(with bytes: UnsafeRawBufferPointer) -> String {
    precondition(ftruncate(descriptor, 0) == 0)
    if let base = bytes.baseAddress, !bytes.isEmpty {
      precondition(pwrite(descriptor, base, bytes.count, 0) == bytes.count, "short write")
    }
    return path
  }
}
