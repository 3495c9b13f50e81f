// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "pulsebar",
  products: [
    .executable(name: "pulsebar", targets: ["pulsebar"])
  ],
  targets: [
    // No pkgConfig for libpulse: its .pc file adds -D_REENTRANT -pthread, which SwiftPM
    // rejects with a warning on every build. The headers live in /usr/include and the
    // module map links libpulse itself, so nothing is lost.
    .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
    .systemLibrary(
      name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
    .systemLibrary(
      name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
    .systemLibrary(name: "CLinux"),
    .target(name: "PulseBarCore", dependencies: ["CFFTW"]),
    .target(name: "PulseBarAudio", dependencies: ["PulseBarCore", "CPulse", "CSndFile", "CLinux"]),
    .target(name: "PulseBarDaemon", dependencies: ["PulseBarAudio", "PulseBarCore", "CLinux"]),
    .executableTarget(name: "pulsebar", dependencies: ["PulseBarDaemon"]),
    .executableTarget(
      name: "pulsebar-bench",
      dependencies: ["PulseBarDaemon", "PulseBarTestSupport", "CFFTW", "AllocationCounter"],
      path: "bench", exclude: ["AllocationCounter"]),
    // Counts allocations in the bench binary only (checks the per-frame path allocates nothing).
    .target(name: "AllocationCounter", path: "bench/AllocationCounter"),
    // Not shipped: a private PulseAudio server, child-process helpers and the picture
    // scenarios (synthesized audio, bar figures) for the tests and benches.
    .target(name: "PulseBarTestSupport", dependencies: ["CLinux", "CPulse"]),
    .testTarget(name: "PulseBarCoreTests", dependencies: ["PulseBarCore", "PulseBarTestSupport"]),
    .testTarget(
      name: "PulseBarAudioTests", dependencies: ["PulseBarAudio", "PulseBarTestSupport"]),
    .testTarget(
      name: "PulseBarDaemonTests",
      dependencies: ["PulseBarDaemon", "PulseBarTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
