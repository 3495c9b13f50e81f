import Glibc

/// Which of the analyser's two transforms a bar reads.
package enum Transform: Sendable, Equatable {
  /// The long transform: fine frequency resolution, for every band below 4 kHz.
  case long
  /// The short transform: fast response, for the bands above 4 kHz.
  case short
}
