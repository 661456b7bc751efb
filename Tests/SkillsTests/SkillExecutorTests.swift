import Foundation
import Skills
import TestSupport
import Testing

struct SkillExecutorTests {
  let clock = TestClock()
  var executor: SkillExecutor<TestClock> { SkillExecutor(clock: clock) }

  @Test func timeoutCancelsASlowSkill() async throws {
    let probe = CancellationProbe()
    let call = try AnySkill(SlowSkill(probe: probe)).call(with: json("{}"))
    async let outcome = executor.execute(call)
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .seconds(20))
    let result = await outcome
    #expect(result.status == .failed(.timedOut(seconds: 20)))
    #expect(result.error?.description == "skill did not finish within 20 s and was cancelled")
    #expect(probe.wasStarted)
    #expect(probe.wasCancelled, "the losing task must be cancelled, not left running")
    #expect(result.elapsed == .seconds(20))
  }

  @Test func retriesTransientFailuresWithBackoffOnTheInjectedClock() async throws {
    let script = FailureScript([.transient("busy"), .transient("busy")])
    let call = try AnySkill(EchoSkill(script: script)).call(with: json(#"{"city": "北京"}"#))
    async let outcome = executor.execute(call)
    #expect(await clock.waitForSleepers(2))  // the timeout and the first back-off
    clock.advance(by: .seconds(2))
    #expect(await clock.waitForSleepers(2))  // the timeout and the second back-off
    clock.advance(by: .seconds(4))
    let result = await outcome
    #expect(result.attempts == 3)
    #expect(result.output?.canonicalJSON == #"{"city":"北京","days":1}"#)
    #expect(result.elapsed == .seconds(6))
  }

  @Test func givesUpAfterThreeTransientFailures() async throws {
    let script = FailureScript(Array(repeating: .transient("busy"), count: 5))
    let call = try AnySkill(EchoSkill(script: script)).call(with: json(#"{"city": "北京"}"#))
    async let outcome = executor.execute(call)
    await clock.run(for: .seconds(7))
    let result = await outcome
    #expect(result.status == .failed(.transient("busy")))
    #expect(result.attempts == 3)
    #expect(script.callCount == 3)
  }

  @Test func doesNotRetryAPermanentFailure() async throws {
    let script = FailureScript([.invalidInput("unknown city")])
    let call = try AnySkill(EchoSkill(script: script)).call(with: json(#"{"city": "x"}"#))
    let result = await executor.execute(call)
    #expect(result.status == .failed(.invalidInput("unknown city")))
    #expect(result.attempts == 1)
  }

  @Test func concurrentCallsKeepTheirOwnResultsWhenOneFails() async throws {
    let failing = FailureScript([.failed("service said no")])
    let calls = [
      try AnySkill(EchoSkill(script: failing)).call(with: json(#"{"city": "上海"}"#)),
      try AnySkill(EchoSkill(intentID: "other")).call(with: json(#"{"city": "杭州"}"#)),
    ]
    let outcomes = await executor.executeAll(calls)
    #expect(outcomes.map(\.intentID) == ["weather.query", "other"])
    #expect(outcomes[0].status == .failed(.failed("service said no")))
    #expect(outcomes[1].output?.canonicalJSON == #"{"city":"杭州","days":1}"#)
  }

  @Test func aHangingCallDoesNotHoldBackTheOthers() async throws {
    let probe = CancellationProbe()
    let calls = [
      try AnySkill(SlowSkill(probe: probe)).call(with: json("{}")),
      try AnySkill(EchoSkill()).call(with: json(#"{"city": "杭州"}"#)),
    ]
    async let outcomes = executor.executeAll(calls)
    while !probe.wasStarted { await Task.yield() }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .seconds(20))
    let results = await outcomes
    #expect(results[0].status == .failed(.timedOut(seconds: 20)))
    #expect(results[1].output?.canonicalJSON == #"{"city":"杭州","days":1}"#)
    #expect(probe.wasCancelled)
  }

  @Test func cancellingTheCallerCancelsTheSkill() async throws {
    let probe = CancellationProbe()
    let call = try AnySkill(SlowSkill(probe: probe)).call(with: json("{}"))
    let executor = self.executor
    let task = Task { await executor.execute(call) }
    #expect(await clock.waitForSleepers(1))
    while !probe.wasStarted { await Task.yield() }
    task.cancel()
    let result = await task.value
    #expect(result.status == .failed(.cancelled))
    #expect(probe.wasCancelled)
  }
}
