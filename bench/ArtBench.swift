import Glibc
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem

/// `pulsebar-bench art`: what `colors.from_art` costs once per track, for a 3000×3000 JPEG
/// cover (ImageMagick's `plasma:fractal`, quality 90) and a 1000×1000 PNG: the file read,
/// decoded (TurboJPEG at 1/8, libpng at full size) and quantized, in CPU time of this thread,
/// best and median of 15 runs. The budget is 30 ms for the JPEG.
func runArtBench() {
  var template = Array("/tmp/pulsebar-art-bench-XXXXXX".utf8CString)
  let directory = template.withUnsafeMutableBufferPointer {
    String(cString: mkdtemp($0.baseAddress!)!)
  }
  defer { _ = system("rm -rf '\(directory)'") }
  let covers = [
    ("3000x3000 JPEG", "cover.jpg", "-size 3000x3000 plasma:fractal -seed 3 -quality 90"),
    ("1000x1000 PNG", "cover.png", "-size 1000x1000 plasma:fractal -seed 3"),
  ]
  print("| cover | bytes | best | median | budget |")
  print("| --- | --- | --- | --- | --- |")
  for (label, name, arguments) in covers {
    let path = directory + "/" + name
    guard system("convert \(arguments) '\(path)'") == 0 else {
      print("| \(label) | convert failed (ImageMagick) | | | |")
      continue
    }
    var times: [Double] = []
    var size = 0
    for _ in 0..<15 {
      let start = threadCPUSeconds()
      guard let bytes = try? RegularFile.read(path, maximumBytes: ArtSource.maximumImageBytes),
        (try? ArtDecoder.palette(of: bytes, background: RGBColor(red: 0, green: 0, blue: 0)))
          != nil
      else {
        print("| \(label) | not decoded | | | |")
        break
      }
      size = bytes.count
      times.append(threadCPUSeconds() - start)
    }
    guard !times.isEmpty else { continue }
    times.sort()
    func ms(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
    let budget =
      name.hasSuffix(".jpg") ? (times[0] <= 0.030 ? "≤ 30 ms: met" : "30 ms: MISSED") : ""
    print("| \(label) | \(size) | \(ms(times[0])) | \(ms(times[times.count / 2])) | \(budget) |")
  }
}

private func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
