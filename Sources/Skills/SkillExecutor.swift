import Foundation
import Synchronization

/// Runs skill calls with a timeout that really cancels, retries of transient failures, and the
/// last-good cache as a stand-in when a network skill fails.
///
/// Time comes from `clock`, so tests drive timeouts and back-off without waiting.
public struct SkillExecutor<C: Clock<Duration>>: Sendable {
  /// The clock timeouts and back-off sleep on.
  public let clock: C
  /// Longest time one call may take, retries and back-off included.
  public var timeout: Duration
  /// How transient failures are retried.
  public var retryPolicy: RetryPolicy

  /// 20 s: long enough for a slow mobile network, short enough that nobody stares at a spinner
  /// for longer (the seed article's production setting).
  public static var defaultTimeout: Duration { .seconds(20) }

  /// Creates an executor on `clock`.
  public init(
    clock: C, timeout: Duration = Self.defaultTimeout, retryPolicy: RetryPolicy = .default
  ) {
    self.clock = clock
    self.timeout = timeout
    self.retryPolicy = retryPolicy
  }

  /// Runs one call: retried while transient, cancelled at the timeout, replaced by its last good
  /// result when it fails for a network reason and `cache` has one.
  public func execute(_ call: SkillCall, cache: LastGoodCache? = nil) async -> SkillOutcome {
    let start = clock.now
    let attempts = Mutex(0)
    let status: SkillOutcome.Status
    do {
      let policy = retryPolicy
      let clock = clock
      let output = try await withTimeout(timeout) {
        try await Self.performWithRetries(call, policy: policy, clock: clock) {
          attempts.withLock { $0 += 1 }
        }
      }
      status = .succeeded(output)
      if call.keepsLastGoodResult, let cache {
        await cache.store(output, for: call.cacheKey)
      }
    } catch {
      let failure = Self.skillError(from: error)
      if failure.allowsLastGoodResult, call.keepsLastGoodResult, let cache,
        let cached = await cache.lastGood(for: call.cacheKey)
      {
        status = .stale(cached.output, age: cached.age, error: failure)
      } else {
        status = .failed(failure)
      }
    }
    return SkillOutcome(
      intentID: call.intentID, status: status, attempts: attempts.withLock { $0 },
      elapsed: start.duration(to: clock.now))
  }

  /// Runs independent calls concurrently; each has its own outcome, in the order given.
  ///
  /// One call failing, timing out or hanging never loses the others' results.
  public func executeAll(_ calls: [SkillCall], cache: LastGoodCache? = nil) async -> [SkillOutcome]
  {
    await withTaskGroup(of: (Int, SkillOutcome).self) { group in
      for (index, call) in calls.enumerated() {
        group.addTask { (index, await self.execute(call, cache: cache)) }
      }
      var outcomes: [SkillOutcome?] = Array(repeating: nil, count: calls.count)
      for await (index, outcome) in group { outcomes[index] = outcome }
      return outcomes.enumerated().map { index, outcome in
        outcome
          ?? SkillOutcome(
            intentID: calls[index].intentID, status: .failed(.cancelled), attempts: 0,
            elapsed: .zero)
      }
    }
  }

  /// Runs `operation`, cancelling it and throwing ``SkillError/timedOut(seconds:)`` at `limit`.
  ///
  /// The losing task is cancelled with `cancelAll()` and awaited, so no work outlives the call.
  public func withTimeout<T: Sendable>(
    _ limit: Duration, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let clock = clock
    return try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        try await clock.sleep(for: limit)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let value = first else {
        try Task.checkCancellation()
        throw SkillError.timedOut(seconds: Self.seconds(limit))
      }
      return value
    }
  }

  private static func performWithRetries(
    _ call: SkillCall, policy: RetryPolicy, clock: C, countAttempt: @Sendable () -> Void
  ) async throws -> Data {
    var schedule = RetrySchedule(policy: policy)
    while true {
      try Task.checkCancellation()
      countAttempt()
      do {
        return try await call.perform()
      } catch {
        if error is CancellationError || Task.isCancelled { throw CancellationError() }
        let failure = skillError(from: error)
        switch schedule.attemptFailed(isTransient: failure.isTransient) {
        case .retry(let delay): try await clock.sleep(for: delay)
        case .giveUp: throw failure
        }
      }
    }
  }

  /// Maps anything a skill or the runtime threw to a ``SkillError``.
  static func skillError(from error: any Error) -> SkillError {
    if let error = error as? SkillError { return error }
    if error is CancellationError { return .cancelled }
    return .failed(String(describing: error))
  }

  static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }
}

extension SkillExecutor where C == ContinuousClock {
  /// Creates an executor on the continuous clock, as most callers want.
  public init(timeout: Duration = Self.defaultTimeout, retryPolicy: RetryPolicy = .default) {
    self.init(clock: ContinuousClock(), timeout: timeout, retryPolicy: retryPolicy)
  }
}
