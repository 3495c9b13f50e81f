import Testing

@testable import PulseBarAudio
