import Glibc

/// Mono downmix or separate left and right channels.
package enum ChannelMode: String, Sendable, CaseIterable {
  case mono
  case stereo

  /// Analysed channels.
  package var count: Int { self == .mono ? 1 : 2 }
}
