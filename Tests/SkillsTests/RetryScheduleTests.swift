import Skills
import Testing

struct RetryScheduleTests {
  @Test func retriesTransientFailuresWithDoublingBackoffThenGivesUp() {
    var schedule = RetrySchedule(policy: .default)
    #expect(schedule.attemptFailed(isTransient: true) == .retry(after: .seconds(2)))
    #expect(schedule.attemptFailed(isTransient: true) == .retry(after: .seconds(4)))
    #expect(schedule.attemptFailed(isTransient: true) == .giveUp)
    #expect(schedule.failures == 3)
  }

  @Test func neverRetriesAPermanentFailure() {
    var schedule = RetrySchedule(policy: .default)
    #expect(schedule.attemptFailed(isTransient: false) == .giveUp)
  }

  @Test func oneAttemptPolicyNeverRetries() {
    var schedule = RetrySchedule(policy: .never)
    #expect(schedule.attemptFailed(isTransient: true) == .giveUp)
  }
}
