public import Foundation

/// What came of one skill call after timeouts, retries and the last-good cache.
public struct SkillOutcome: Sendable, Equatable {
  /// How the call ended.
  public enum Status: Sendable, Equatable {
    /// The skill returned this output (JSON).
    case succeeded(Data)
    /// The skill failed for a network reason; this is its last good output, `age` seconds old.
    case stale(Data, age: TimeInterval, error: SkillError)
    /// The skill failed and nothing stands in for it.
    case failed(SkillError)
  }

  /// The intent the call served.
  public var intentID: String
  /// How the call ended.
  public var status: Status
  /// Attempts made, the first included.
  public var attempts: Int
  /// Time from the first attempt to the end, on the executor's clock.
  public var elapsed: Duration

  /// Creates an outcome.
  public init(intentID: String, status: Status, attempts: Int, elapsed: Duration) {
    self.intentID = intentID
    self.status = status
    self.attempts = attempts
    self.elapsed = elapsed
  }

  /// The output, fresh or stale, or nil when the call failed.
  public var output: Data? {
    switch status {
    case .succeeded(let data), .stale(let data, _, _): data
    case .failed: nil
    }
  }

  /// The error behind a failed or stale result.
  public var error: SkillError? {
    switch status {
    case .succeeded: nil
    case .stale(_, _, let error), .failed(let error): error
    }
  }

  /// Whether the output is a cached stand-in.
  public var isStale: Bool {
    if case .stale = status { return true }
    return false
  }
}
