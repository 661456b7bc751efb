/// How often and how patiently a transient failure is retried.
public struct RetryPolicy: Sendable, Equatable {
  /// Most attempts in total, the first included.
  public var maxAttempts: Int
  /// The wait before the second attempt; each later wait doubles.
  public var backoff: Duration

  /// Creates a policy.
  public init(maxAttempts: Int, backoff: Duration) {
    self.maxAttempts = max(1, maxAttempts)
    self.backoff = backoff
  }

  /// Three tries, waiting 2 s then 4 s: a service that is still down after ~6 s is reported as
  /// down (the seed article's measurements of flaky weather services, reused as the default).
  public static let `default` = RetryPolicy(maxAttempts: 3, backoff: .seconds(2))

  /// One attempt, no retries.
  public static let never = RetryPolicy(maxAttempts: 1, backoff: .zero)
}

/// The retry state of one call: a pure machine that says what to do after each failure.
public struct RetrySchedule: Sendable {
  /// What the executor does after a failed attempt.
  public enum Action: Equatable, Sendable {
    /// Waits, then tries again.
    case retry(after: Duration)
    /// Reports the failure.
    case giveUp
  }

  /// The policy in force.
  public let policy: RetryPolicy
  /// Failed attempts so far.
  public private(set) var failures = 0

  /// Creates a schedule with no failures yet.
  public init(policy: RetryPolicy) {
    self.policy = policy
  }

  /// Records a failed attempt and returns what to do next.
  public mutating func attemptFailed(isTransient: Bool) -> Action {
    failures += 1
    guard isTransient, failures < policy.maxAttempts else { return .giveUp }
    return .retry(after: policy.backoff * (1 << (failures - 1)))
  }
}
