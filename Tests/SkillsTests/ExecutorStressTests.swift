import Foundation
import Skills
import TestSupport
import Testing

/// The executor under hundreds of concurrent calls with seeded timeouts, delays and failures:
/// every call gets exactly the outcome its fake skill earned, and no skill invocation or clock
/// sleeper outlives the calls.
///
/// Everything sleeps on one ``TestClock``. Skill delays and back-off waits are multiples of
/// 10 ms and every timeout ends in 5 ms, so no skill finishes at the very moment its call times
/// out, and the expected outcome of each call follows from its plan alone.
struct ExecutorStressTests {
  /// How one attempt of a fake skill ends.
  enum Ending: Sendable {
    case success
    case transient
    case permanent
    /// Sleeps on the clock until cancelled.
    case hang
  }

  /// One attempt: how long it sleeps on the clock, then how it ends.
  struct Attempt: Sendable {
    var delay: Duration
    var ending: Ending
  }

  /// What one call's fake skill does on successive attempts, and the timeout it runs under.
  struct Plan: Sendable {
    var index: Int
    var timeout: Duration
    var attempts: [Attempt]
  }

  /// What a call must come back with, worked out from its plan.
  struct Expected: Equatable {
    var status: SkillOutcome.Status
    var attempts: Int
    var elapsed: Duration
    /// Whether the timeout cancels an attempt that is still running.
    var cancelsAnAttempt: Bool
  }

  /// Live and finished invocations of the fake skills, behind a lock.
  final class Census: Sendable {
    struct Counts {
      var live = 0
      var started = 0
      var cancelled = 0
      var finishedCalls = 0
    }
    let counts = Locked(Counts())
    func value() -> Counts { counts.withLock { $0 } }
  }

  static let policy = RetryPolicy(maxAttempts: 3, backoff: .milliseconds(10))
  static let step = Duration.milliseconds(5)

  static func plans(count: Int, seed: UInt64) -> [Plan] {
    var random = SeededGenerator(seed: seed)
    return (0..<count).map { index in
      let timeout = Duration.milliseconds(10 * Int.random(in: 3...20, using: &random) + 5)
      let transients = Int.random(in: 0...3, using: &random)
      var attempts = (0..<transients).map { _ in
        Attempt(
          delay: .milliseconds(10 * Int.random(in: 1...6, using: &random)), ending: .transient)
      }
      if attempts.count < policy.maxAttempts {
        let ending: Ending =
          [.success, .success, .permanent, .hang].randomElement(using: &random) ?? .success
        attempts.append(
          Attempt(delay: .milliseconds(10 * Int.random(in: 1...10, using: &random)), ending: ending)
        )
      }
      return Plan(index: index, timeout: timeout, attempts: attempts)
    }
  }

  static func output(_ index: Int) -> Data { Data(#"{"call":\#(index)}"#.utf8) }

  /// Replays the executor's rules (attempt, back-off, timeout) on a plan.
  static func expected(_ plan: Plan) -> Expected {
    let parts = plan.timeout.components
    let timedOut = SkillOutcome.Status.failed(
      .timedOut(seconds: Double(parts.seconds) + Double(parts.attoseconds) / 1e18))
    var now = Duration.zero
    for (number, attempt) in plan.attempts.enumerated() {
      if attempt.ending == .hang || now + attempt.delay > plan.timeout {
        return Expected(
          status: timedOut, attempts: number + 1, elapsed: plan.timeout, cancelsAnAttempt: true)
      }
      now += attempt.delay
      switch attempt.ending {
      case .success:
        return Expected(
          status: .succeeded(output(plan.index)), attempts: number + 1, elapsed: now,
          cancelsAnAttempt: false)
      case .permanent:
        return Expected(
          status: .failed(.invalidInput("call \(plan.index) refused")), attempts: number + 1,
          elapsed: now, cancelsAnAttempt: false)
      case .transient where number + 1 == policy.maxAttempts:
        return Expected(
          status: .failed(.transient("call \(plan.index) busy")), attempts: number + 1,
          elapsed: now, cancelsAnAttempt: false)
      case .transient, .hang:
        now += policy.backoff * (1 << number)
        if now > plan.timeout {
          return Expected(
            status: timedOut, attempts: number + 1, elapsed: plan.timeout,
            cancelsAnAttempt: false)
        }
      }
    }
    // Plans always end in a non-transient attempt or reach the last allowed one.
    return Expected(
      status: .failed(.cancelled), attempts: 0, elapsed: .zero, cancelsAnAttempt: false)
  }

  static func call(for plan: Plan, clock: TestClock, census: Census) -> SkillCall {
    let script = Locked(plan.attempts[...])
    return SkillCall(
      intentID: "stress.\(plan.index)", displayName: "Stress", canonicalInput: Data("{}".utf8),
      keepsLastGoodResult: false
    ) {
      guard let attempt = script.withLock({ $0.popFirst() }) else {
        throw SkillError.failed("call \(plan.index) attempted more often than planned")
      }
      census.counts.withLock {
        $0.live += 1
        $0.started += 1
      }
      defer { census.counts.withLock { $0.live -= 1 } }
      do {
        try await clock.sleep(for: attempt.ending == .hang ? .seconds(3_600) : attempt.delay)
      } catch {
        census.counts.withLock { $0.cancelled += 1 }
        throw error
      }
      switch attempt.ending {
      case .success: return output(plan.index)
      case .transient: throw SkillError.transient("call \(plan.index) busy")
      case .permanent: throw SkillError.invalidInput("call \(plan.index) refused")
      case .hang: throw SkillError.failed("call \(plan.index) woke from a hang")
      }
    }
  }

  /// Advances the clock one step at a time, each once every unfinished call is asleep on it (its
  /// timeout plus its attempt or back-off), until every call has finished.
  ///
  /// Returns false when the calls stopped making progress (a lost wake-up or a leaked task).
  static func drive(_ clock: TestClock, census: Census, calls: Int) async -> Bool {
    var idle = 0
    while census.value().finishedCalls < calls {
      let live = calls - census.value().finishedCalls
      if clock.sleeperCount == 2 * live {
        clock.advance(by: step)
        idle = 0
      } else {
        idle += 1
        // 5 s of real time without every call settling means something hangs.
        if idle > 5_000 { return false }
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
    return true
  }

  @Test(arguments: [UInt64(16), 2026])
  func fiveHundredConcurrentCallsEachGetTheOutcomeTheirSkillEarned(seed: UInt64) async throws {
    let clock = TestClock()
    let census = Census()
    let plans = Self.plans(count: 500, seed: seed)
    let expected = plans.map(Self.expected)
    // The seeded plans reach every kind of ending.
    let kinds = Set(expected.map { "\($0.status.kind) \($0.cancelsAnAttempt)" })
    #expect(
      kinds == [
        "success false", "refused false", "gave up false", "timeout true", "timeout false",
      ])

    let outcomes = await withTaskGroup(of: (Int, SkillOutcome).self) { group in
      for plan in plans {
        let executor = SkillExecutor(clock: clock, timeout: plan.timeout, retryPolicy: Self.policy)
        let call = Self.call(for: plan, clock: clock, census: census)
        group.addTask {
          let outcome = await executor.execute(call)
          census.counts.withLock { $0.finishedCalls += 1 }
          return (plan.index, outcome)
        }
      }
      let driven = await Self.drive(clock, census: census, calls: plans.count)
      #expect(driven, "the calls stopped making progress")
      if !driven { group.cancelAll() }
      var outcomes: [Int: [SkillOutcome]] = [:]
      for await (index, outcome) in group { outcomes[index, default: []].append(outcome) }
      return outcomes
    }

    #expect(outcomes.count == plans.count, "every call returns")
    for plan in plans {
      let results = outcomes[plan.index] ?? []
      #expect(results.count == 1, "call \(plan.index) returns exactly once")
      guard let outcome = results.first else { continue }
      let want = expected[plan.index]
      #expect(outcome.intentID == "stress.\(plan.index)")
      #expect(outcome.status == want.status, "call \(plan.index)")
      #expect(outcome.attempts == want.attempts, "call \(plan.index)")
      #expect(outcome.elapsed == want.elapsed, "call \(plan.index)")
    }
    let counts = census.value()
    #expect(counts.live == 0, "no skill invocation is left running")
    #expect(clock.sleeperCount == 0, "no timeout or back-off sleeper is left on the clock")
    #expect(counts.started == expected.map(\.attempts).reduce(0, +))
    #expect(counts.cancelled == expected.filter(\.cancelsAnAttempt).count)
  }
}

extension SkillOutcome.Status {
  /// The kind of ending, for checking that the seeded plans reach each one.
  fileprivate var kind: String {
    switch self {
    case .succeeded: "success"
    case .failed(.invalidInput): "refused"
    case .failed(.transient): "gave up"
    case .failed(.timedOut): "timeout"
    case .stale, .failed: "other"
    }
  }
}
