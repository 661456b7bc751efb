/// Why a skill call failed, as the executor and router see it.
public enum SkillError: Error, Equatable, CustomStringConvertible, Sendable {
  /// A failure worth retrying: a dropped connection, a busy service.
  case transient(String)
  /// The service behind the skill could not be reached; a cached result may stand in.
  case unavailable(String)
  /// The input was wrong and retrying will not help.
  case invalidInput(String)
  /// The call did not finish in time and was cancelled.
  case timedOut(seconds: Double)
  /// The caller cancelled the call before it finished.
  case cancelled
  /// No skill is registered for the intent yet.
  case notAvailable(intent: String)
  /// Two skills were registered for one intent.
  case duplicateIntent(String, first: String, second: String)
  /// Any other failure, with a message for people.
  case failed(String)

  public var description: String {
    switch self {
    case .transient(let message): message
    case .unavailable(let message): message
    case .invalidInput(let message): message
    case .timedOut(let seconds):
      "skill did not finish within \(Self.format(seconds)) s and was cancelled"
    case .cancelled: "the call was cancelled"
    case .notAvailable(let intent): "the skill for '\(intent)' is not available yet"
    case .duplicateIntent(let intent, let first, let second):
      "intent '\(intent)' already has the skill '\(first)'; remove '\(second)' or give it another intent"
    case .failed(let message): message
    }
  }

  /// Whether another attempt might succeed.
  public var isTransient: Bool {
    if case .transient = self { return true }
    return false
  }

  /// Whether the failure comes from the network or a service, so a last good result may stand in.
  public var allowsLastGoodResult: Bool {
    switch self {
    case .transient, .unavailable, .timedOut: true
    default: false
    }
  }

  /// Formats seconds without a needless fraction: `20`, `0.5`.
  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
  }
}
