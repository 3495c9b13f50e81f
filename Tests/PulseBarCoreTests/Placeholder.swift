import Testing

@testable import PulseBarCore
