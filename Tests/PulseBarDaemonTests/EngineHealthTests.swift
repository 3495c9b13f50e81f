import PulseBarAudio
import PulseBarCore
import Testing

@testable import PulseBarDaemon

/// The watchdog's view of the engine, with exact times.
@Suite struct EngineHealthTests {
  @Test func sleepingIsHealthyHoweverLong() {
    let health = EngineHealth()
    #expect(health.isHealthy(limit: 5, now: 1_000))
    health.beginWork(now: 10)
    health.endWork()
    #expect(health.isHealthy(limit: 0.001, now: 1_000))
  }

  @Test func workLongerThanTheLimitIsUnhealthy() {
    let health = EngineHealth()
    health.beginWork(now: 1_000)
    #expect(health.isHealthy(limit: 0.5, now: 1_000.25))
    #expect(health.isHealthy(limit: 0.5, now: 1_000.5))
    #expect(!health.isHealthy(limit: 0.5, now: 1_000.501))
    health.endWork()
    #expect(health.isHealthy(limit: 0.5, now: 9_999))
  }
}
