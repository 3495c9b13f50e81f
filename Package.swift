// swift-tools-version:6.0
import PackageDescription

/// Where libpipewire's and SPA's headers are (Debian's libpipewire-0.3-dev, what
/// `pkg-config --cflags libpipewire-0.3` says without its -D_REENTRANT), for every Swift
/// target that sees the CPipeWire module: PulseBarAudio, and the targets that
/// `@testable import` it.
let pipeWireHeaders: [SwiftSetting] = [
  .unsafeFlags(["-Xcc", "-I/usr/include/pipewire-0.3", "-Xcc", "-I/usr/include/spa-0.2"])
]

// Release builds on Linux put every function in a section of its own, so the link can place
// the functions of scripts/hot-functions.txt (what runs while music plays) first, next to each
// other: the steady state then keeps a few hundred kB of the executable resident rather than
// pages all over it (bench/README.md "Memory"). Debug builds and tests are unaffected.
let releaseLayout: [SwiftSetting] = [
  .unsafeFlags(
    ["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
  name: "pulsebar",
  products: [
    .executable(name: "pulsebar", targets: ["pulsebar"])
  ],
  targets: [
    // No pkgConfig for libpulse: its .pc file adds -D_REENTRANT -pthread, which SwiftPM
    // rejects with a warning on every build. The headers live in /usr/include and the
    // module map links libpulse itself, so nothing is lost.
    // CPulse and CSndFile are headers only: nothing links libpulse or libsndfile. The
    // CAudioLibraries target opens them with dlopen when a PulseAudio source or an audio file
    // first needs them, and defines the functions pulsebar calls as forwarders (its source
    // says why: native PipeWire capture then maps neither, nor their codecs).
    .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
    .systemLibrary(
      name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
    .systemLibrary(name: "CSndFile", providers: [.apt(["libsndfile1-dev"])]),
    // DWARF 4: clang's default DWARF 5 forms are more than Debian's valgrind 3.19 reads, and
    // the tests run pulsebar under valgrind (Swift's own objects are DWARF 4).
    .target(name: "CAudioLibraries", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
    // GNU FriBidi for the readers that do no bidi (polybar, the ANSI view), opened on first use
    // like libpulse: right-to-left titles in display order and Arabic shaped (docs/WIDTHS.md).
    .target(name: "CFriBidi", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
    .systemLibrary(
      name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    // Native PipeWire capture; the shim wraps the client API's macros (see its header). No
    // pkgConfig either, for the same reason as libpulse (its .pc adds -D_REENTRANT); its headers
    // live in their own directories, which `pipeWireHeaders` names to whoever imports it.
    .systemLibrary(name: "CPipeWire", providers: [.apt(["libpipewire-0.3-dev"])]),
    .systemLibrary(name: "CLinux"),
    // The typed POSIX layer every module that does I/O builds on: descriptors, errno, eventfd,
    // timerfd, signalfd, poll/epoll, sockets, threads, clock, environment, the lock. The core
    // does no I/O and uses only its lock (the FFTW planner's).
    .target(name: "PulseBarSystem", dependencies: ["CLinux"], swiftSettings: releaseLayout),
    .target(
      name: "PulseBarCore", dependencies: ["CFFTW", "CFriBidi", "PulseBarSystem"],
      swiftSettings: releaseLayout),
    .target(
      name: "PulseBarAudio",
      dependencies: [
        "PulseBarSystem", "PulseBarCore", "CPulse", "CPipeWire", "CSndFile", "CAudioLibraries",
      ],
      swiftSettings: pipeWireHeaders + releaseLayout),
    // MPRIS players over sd-bus: the active player's state and metadata, and `pulsebar ctl`.
    .target(
      name: "PulseBarPlayers",
      dependencies: ["PulseBarSystem", "PulseBarCore", "CSystemd", "CAudioLibraries"],
      swiftSettings: releaseLayout),
    .target(
      name: "PulseBarDaemon",
      dependencies: [
        "PulseBarSystem", "PulseBarAudio", "PulseBarPlayers", "PulseBarCore", "CAudioLibraries",
      ],
      swiftSettings: releaseLayout),
    // Release builds link a position-dependent executable: a PIE's loader rewrites every
    // page of `.data.rel.ro` (220 kB, dirty for good) from a 620 kB relocation table, a
    // fixed-address binary has neither. `-z now` binds every symbol at start-up, so the
    // lazy lookups through the exported symbol table do not go on while frames run
    // (bench/README.md "Memory"). Debug builds and tests keep the defaults.
    .executableTarget(
      name: "pulsebar", dependencies: ["PulseBarDaemon", "PulseBarCore", "PulseBarSystem"],
      swiftSettings: releaseLayout,
      linkerSettings: [
        .unsafeFlags(
          [
            "-Xclang-linker", "-no-pie", "-Xlinker", "-z", "-Xlinker", "now", "-Xlinker",
            "--section-ordering-file=\(Context.packageDirectory)/scripts/hot-functions.txt",
          ],
          .when(platforms: [.linux], configuration: .release))
      ]),
    .executableTarget(
      name: "pulsebar-bench",
      dependencies: [
        "PulseBarSystem", "PulseBarCore", "PulseBarAudio", "PulseBarDaemon", "PulseBarTestSupport",
        "PulseBarPlayers", "CFFTW", "AllocationCounter",
      ],
      path: "bench", exclude: ["AllocationCounter", "README.md"]),
    // Counts allocations in the bench binary only (checks the per-frame path allocates nothing).
    .target(name: "AllocationCounter", path: "bench/AllocationCounter"),
    .target(
      name: "PulseBarTestSupport", dependencies: ["PulseBarSystem", "CPulse", "CAudioLibraries"]),
    .testTarget(name: "PulseBarSystemTests", dependencies: ["PulseBarSystem"]),
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

// libFuzzer harnesses, declared only when PULSEBAR_FUZZ is set: `make fuzz` builds them in
// .build/fuzz with `--sanitize fuzzer` and AddressSanitizer; plain builds, `make test` and CI
// never see them. They live in this package rather than in a package of their own under fuzz/
// because the APIs they drive have `package` access, which another package cannot see.
// See fuzz/README.md.
if Context.environment["PULSEBAR_FUZZ"] != nil {
  let harnesses: [(name: String, modules: [Target.Dependency])] = [
    ("config", ["PulseBarCore"]), ("subscription", ["PulseBarCore", "PulseBarDaemon"]),
    ("command-line", ["PulseBarCore", "PulseBarDaemon"]),
    ("audio-file", ["PulseBarAudio"]), ("raw-pcm", ["PulseBarAudio"]),
    ("bus-message", ["PulseBarPlayers"]),
    ("template", ["PulseBarCore"]), ("lrc", ["PulseBarCore"]),
    ("image", ["PulseBarCore", "PulseBarPlayers"]), ("uri", ["PulseBarCore"]),
    ("overlay-request", ["PulseBarDaemon"]),
  ]
  for harness in harnesses {
    package.targets.append(
      .executableTarget(
        name: "fuzz-\(harness.name)", dependencies: harness.modules,
        path: "fuzz/Sources/fuzz-\(harness.name)",
        // libFuzzer brings `main`; a harness only defines `LLVMFuzzerTestOneInput`.
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
  }
}
