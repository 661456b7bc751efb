/// A capability the router can invoke for one intent.
///
/// ## Implementation requirements
///
/// - Return promptly once the task is cancelled, by throwing `CancellationError`.
/// - Keep mutable state in an actor: the executor may run two calls at once.
/// - Throw ``SkillError/transient(_:)`` only for failures worth retrying, and
///   ``SkillError/unavailable(_:)`` when a service cannot be reached.
/// - Never handle timeouts or touch UI state: the executor and the session do that.
public protocol Skill: Sendable {
  /// The typed input decoded from the intent's slots.
  associatedtype Input: Decodable & Sendable
  /// The structured result, encoded to JSON for the caller.
  associatedtype Output: Encodable & Sendable

  /// The intent this skill handles, such as `timer.start`.
  var intentID: String { get }
  /// A short name for people and traces, such as `Start timer`.
  var displayName: String { get }
  /// Whether a successful result is kept so that it can stand in when the service fails later.
  var keepsLastGoodResult: Bool { get }

  /// Performs one call and returns what to tell the user.
  func perform(_ input: Input) async throws -> Output
}

extension Skill {
  /// Skills with side effects (timers, reminders) never replay an old result; the default is no.
  public var keepsLastGoodResult: Bool { false }
}
