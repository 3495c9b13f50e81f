import PulseBarAudio
import PulseBarCore
import Testing

@testable import PulseBarDaemon

/// The watchdog's view of the engine, with exact times.
@Suite struct EngineHealthTests {
  @Test func sleepingIsHealthyHoweverLong() {
    let health = EngineHealth()
    #expect(health.isHealthy(limit: 5_000_000_000, now: 1_000_000_000_000))
    health.beginWork(now: 10)
    health.endWork()
    #expect(health.isHealthy(limit: 1, now: 1_000_000_000_000))
  }

  @Test func workLongerThanTheLimitIsUnhealthy() {
    let health = EngineHealth()
    health.beginWork(now: 1_000)
    #expect(health.isHealthy(limit: 500, now: 1_400))
    #expect(health.isHealthy(limit: 500, now: 1_500))
    #expect(!health.isHealthy(limit: 500, now: 1_501))
    health.endWork()
    #expect(health.isHealthy(limit: 500, now: 9_999))
  }
}
