/// A step a running skill reports, for a progress view ("looking up 'Hangzhou'…").
public enum SkillStep: Sendable, Equatable {
  /// The skill began its work.
  case started
  /// The skill is at a stage it describes in a short text.
  case progress(String)
  /// The skill's work is done.
  case finished
  /// A stage failed, with a short message; the call's own result still says how it ended.
  case failed(String)

  /// Longest text kept from a progress or failure message, in characters.
  public static let maximumTextLength = 200

  /// The step's name: `started`, `progress`, `finished` or `failed`.
  public var name: String {
    switch self {
    case .started: "started"
    case .progress: "progress"
    case .finished: "finished"
    case .failed: "failed"
    }
  }

  /// The progress text or failure message, when the step has one.
  public var text: String? {
    switch self {
    case .started, .finished: nil
    case .progress(let text), .failed(let text): text
    }
  }
}

/// Where a running skill reports its steps; the agent listens for the call it runs.
///
/// A skill calls ``report(_:)`` from `perform`; the report reaches whoever runs the call with
/// ``withReporter(_:operation:)`` (tasks the skill starts with structured concurrency included)
/// and is dropped when nobody listens, so skills report without knowing who runs them.
public enum SkillProgress {
  @TaskLocal static var reporter: (@Sendable (SkillStep) -> Void)?

  /// Reports a step of the skill running in the current task.
  public static func report(_ step: SkillStep) {
    reporter?(step)
  }

  /// Runs `operation`, handing every step a skill in it reports to `reporter`.
  public static func withReporter<T: Sendable>(
    _ reporter: @escaping @Sendable (SkillStep) -> Void,
    operation: () async throws -> T
  ) async rethrows -> T {
    try await $reporter.withValue(reporter, operation: operation)
  }
}
