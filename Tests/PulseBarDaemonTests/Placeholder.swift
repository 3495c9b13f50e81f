import Testing

@testable import PulseBarDaemon
