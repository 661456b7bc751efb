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
  /// Any other failure, with a message for people.
  case failed(String)

  public var description: String {
    switch self {
    case .transient(let message): message
    case .unavailable(let message): message
    case .invalidInput(let message): message
    case .timedOut(let seconds): "skill did not finish within \(seconds) s and was cancelled"
    case .failed(let message): message
    }
  }
}
