import Glibc
import PulseBarTestSupport

/// CPU seconds of this process (user + system).
func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// `value` with `decimals` digits.
func fmt(_ value: Double, _ decimals: Int) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  if decimals == 0 { return String(Int(rounded)) }
  var text = String(rounded)
  let digits = text.split(separator: ".").last?.count ?? 0
  if digits < decimals { text += String(repeating: "0", count: decimals - digits) }
  return text
}

/// Left-aligned in `width` columns.
func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

/// Synthesized bench audio.
enum BenchSignals {
  /// Music-like stereo audio: chords and a bass line with noise-burst drums.
  static func music(seconds: Double, sampleRate: Int) -> [Float] {
    let frames = Int(seconds * Double(sampleRate))
    var samples = [Float](repeating: 0, count: frames * 2)
    let notes: [Float] = [110, 220, 261.6, 329.6, 87.3, 174.6, 220, 261.6]
    var noise: UInt32 = 12345
    for frame in 0..<frames {
      let t = Float(frame) / Float(sampleRate)
      let beat = Int(t * 2) % notes.count
      let phase = t.truncatingRemainder(dividingBy: 0.5)
      let decay = expf(-phase * 6)
      var value: Float = 0
      for (index, note) in notes[beat...].prefix(3).enumerated() {
        value += 0.15 * decay * sinf(2 * .pi * note * Float(index + 1) * t)
      }
      noise = noise &* 1_664_525 &+ 1_013_904_223
      let hat = phase < 0.04 ? Float(Int32(bitPattern: noise)) / Float(Int32.max) * 0.2 : 0
      samples[frame * 2] = value + hat
      samples[frame * 2 + 1] = value * 0.8 + hat
    }
    return samples
  }
}

/// Processes, binaries and clocks for the benches.
enum BenchTools {
  /// The release pulsebar if built, else the debug one.
  /// The pulsebar binary for a bench with a real MPRIS player, or `nil` after saying what is
  /// missing (the binary, or mpv-mpris).
  static func pulsebarWithMPRIS() -> String? {
    guard let binary = pulsebarBinary() else {
      print("(pulsebar binary not built; run `swift build -c release` first)")
      return nil
    }
    guard MPRISFixtures.mprisPlugin != nil else {
      print("(mpv-mpris is not installed; `make test-deps` installs it)")
      return nil
    }
    return binary
  }

  static func pulsebarBinary() -> String? {
    for path in [".build/release/pulsebar", ".build/debug/pulsebar"] where access(path, X_OK) == 0 {
      return path
    }
    return nil
  }

  /// Runs `sh -c command`; true on exit 0.
  @discardableResult
  static func shell(_ command: String) -> Bool {
    guard let child = try? ChildProcess("sh", ["-c", command]) else { return false }
    return (try? child.waitForExit(timeout: 600)) == 0
  }

  /// Runs `sh -c command` and returns the CPU seconds its process tree used.
  static func childCPUSeconds(_ command: String) -> Double? {
    guard let child = try? ChildProcess("sh", ["-c", command]),
      (try? child.waitForExit(timeout: 600)) == 0
    else { return nil }
    return child.cpuSeconds
  }

  static func wallSeconds() -> Double { ChildProcess.now() }

  /// The installed version of the Debian package `name` (`dpkg-query`), or `nil`.
  static func packageVersion(_ name: String) -> String? {
    guard let query = try? ChildProcess("dpkg-query", ["-W", "-f", "${Version}", name]),
      (try? query.waitForExit(timeout: 10)) == 0
    else { return nil }
    return query.readLine(timeout: 1)
  }

  /// Writes interleaved stereo float samples as a 16-bit WAV with sox, without sox's
  /// dither (digital silence stays silence, and every run writes the same file).
  static func writeWAV(_ samples: [Float], sampleRate: Int, to path: String) -> Bool {
    let raw = path + ".f32"
    let descriptor = open(raw, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { return false }
    defer { unlink(raw) }
    let bytes = samples.count * MemoryLayout<Float>.size
    let written = samples.withUnsafeBytes { write(descriptor, $0.baseAddress, bytes) }
    close(descriptor)
    guard written == bytes else { return false }
    return shell("sox -D -t raw -r \(sampleRate) -e floating-point -b 32 -c 2 \(raw) -b 16 \(path)")
  }

  /// Writes cava's config for the benches into `directory` and returns its path: cava's
  /// settings as docs/DESIGN.md's budgets fix them (32 bars, stereo, 60 fps, raw ASCII 0…1000 to
  /// stdout), recording `source` with input `method` (`pulse`, or `pipewire` where cava has it).
  /// `framerate`, `channels` and `maxRange` change those for another setup (the Waybar one).
  static func writeCavaConfig(
    source: String, directory: String, bars: Int = 32, method: String = "pulse",
    framerate: Int = 60, channels: String = "stereo", maxRange: Int = 1000
  ) -> String {
    let path = directory + "/cava-\(method)-\(bars)-\(framerate).conf"
    let text = """
      [general]
      bars = \(bars)
      framerate = \(framerate)
      [input]
      method = \(method)
      source = \(source)
      [output]
      method = raw
      channels = \(channels)
      raw_target = /dev/stdout
      data_format = ascii
      ascii_max_range = \(maxRange)

      """
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    _ = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
    close(descriptor)
    return path
  }
}
