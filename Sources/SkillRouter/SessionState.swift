/// Where an app's agent session is: what a view shows at any moment.
public enum SessionState: Sendable, Equatable {
  /// Waiting for input.
  case idle
  /// Reading the utterance and routing it.
  case parsing
  /// Running a skill, named for people.
  case executing(skill: String)
  /// Done; every command's summary.
  case finished(SessionResult)
  /// Nothing could be done; why.
  case failed(String)
}

/// What a finished session shows: one line per command.
public struct SessionResult: Sendable, Equatable {
  /// One summary per command, in order.
  public var lines: [String]
  /// Whether some command failed while others succeeded.
  public var hasPartialFailure: Bool

  /// Creates a result.
  public init(lines: [String], hasPartialFailure: Bool) {
    self.lines = lines
    self.hasPartialFailure = hasPartialFailure
  }
}

/// What one skill is doing, for per-skill progress in a view.
public enum SkillPhase: Sendable, Equatable {
  /// Running.
  case running
  /// Done, with a summary.
  case finished(String)
  /// Failed, with why.
  case failed(String)
}

/// The session's legal transitions as a pure machine; an illegal event changes nothing.
public struct SessionMachine: Sendable, Equatable {
  /// What can happen to a session.
  public enum Event: Sendable, Equatable {
    /// A new utterance was submitted.
    case submit
    /// A skill started.
    case executing(skill: String)
    /// The utterance is done.
    case finish(SessionResult)
    /// The utterance failed.
    case fail(String)
    /// The user dismissed the result.
    case reset
  }

  /// The current state.
  public private(set) var state: SessionState = .idle

  /// Creates a machine in `idle`.
  public init() {}

  /// Applies `event` when legal and returns whether it was.
  ///
  /// A new request is accepted only from `idle` or `failed`: this is the re-entrancy guard that
  /// keeps a double tap from starting a second run over the first.
  @discardableResult
  public mutating func handle(_ event: Event) -> Bool {
    guard let next = Self.next(after: state, on: event) else { return false }
    state = next
    return true
  }

  /// The state after `event` in `state`, or nil when the transition is illegal.
  public static func next(after state: SessionState, on event: Event) -> SessionState? {
    switch (state, event) {
    case (.idle, .submit), (.failed, .submit): .parsing
    case (.parsing, .executing(let skill)), (.executing, .executing(let skill)):
      .executing(skill: skill)
    case (.parsing, .finish(let result)), (.executing, .finish(let result)): .finished(result)
    case (.parsing, .fail(let message)), (.executing, .fail(let message)): .failed(message)
    case (.finished, .reset), (.failed, .reset): .idle
    default: nil
    }
  }
}
