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
    .systemLibrary(
      name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    .systemLibrary(name: "CLinux"),
    // The typed POSIX layer every module that does I/O builds on: descriptors, errno, eventfd,
    // timerfd, signalfd, poll/epoll, sockets, threads, clock, environment, the lock. The core
    // does no I/O and uses only its lock (the FFTW planner's).
    .target(name: "PulseBarSystem", dependencies: ["CLinux"]),
    .target(name: "PulseBarCore", dependencies: ["CFFTW", "PulseBarSystem"]),
    .target(
      name: "PulseBarAudio",
      dependencies: ["PulseBarSystem", "PulseBarCore", "CPulse", "CSndFile"]),
    // MPRIS players over sd-bus: the active player's state and metadata, and `pulsebar ctl`.
    .target(
      name: "PulseBarPlayers", dependencies: ["PulseBarSystem", "PulseBarCore", "CSystemd"]),
    .target(
      name: "PulseBarDaemon",
      dependencies: ["PulseBarSystem", "PulseBarAudio", "PulseBarPlayers", "PulseBarCore"]),
    .executableTarget(
      name: "pulsebar", dependencies: ["PulseBarDaemon", "PulseBarCore", "PulseBarSystem"]),
    .executableTarget(
      name: "pulsebar-bench",
      dependencies: [
        "PulseBarSystem", "PulseBarCore", "PulseBarAudio", "PulseBarDaemon", "PulseBarTestSupport",
        "CFFTW", "AllocationCounter",
      ],
      path: "bench", exclude: ["AllocationCounter"]),
    // Counts allocations in the bench binary only (checks the per-frame path allocates nothing).
    .target(name: "AllocationCounter", path: "bench/AllocationCounter"),
    .target(name: "PulseBarTestSupport", dependencies: ["PulseBarSystem", "CPulse"]),
    .testTarget(name: "PulseBarCoreTests", dependencies: ["PulseBarCore", "PulseBarTestSupport"]),
    .testTarget(
      name: "PulseBarAudioTests",
      dependencies: ["PulseBarSystem", "PulseBarCore", "PulseBarAudio", "PulseBarTestSupport"]),
    .testTarget(
      name: "PulseBarPlayersTests",
      dependencies: ["PulseBarSystem", "PulseBarCore", "PulseBarPlayers", "PulseBarTestSupport"]),
    .testTarget(
      name: "PulseBarDaemonTests",
      dependencies: [
        "PulseBarSystem", "PulseBarCore", "PulseBarAudio", "PulseBarPlayers", "PulseBarDaemon",
        "PulseBarTestSupport",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
