public import IntentEngine
public import Skills

/// Progress of one utterance, as the agent reports it to a UI or log.
public enum AgentEvent: Sendable {
  /// The utterance is being parsed.
  case parsing(text: String)
  /// Command `clause` was routed.
  case routed(clause: Int, intent: String?, route: RouteKind, reason: String)
  /// Command `clause` is running `skill`.
  case executing(clause: Int, skill: String)
  /// The skill of command `clause` reported a step while it runs.
  case step(clause: Int, skill: String, step: SkillStep)
  /// Command `clause` ended: a result (maybe stale) or "not understood".
  case finished(clause: Int, outcome: ClauseOutcome)
  /// Command `clause` failed with `message`; `skill` is nil when no skill ran.
  case failed(clause: Int, skill: String?, message: String)
  /// The whole utterance is done.
  case completed(AgentOutcome)
}

extension AgentEvent {
  /// The event as one `intent run --events` line's object, such as
  /// `{"event": "step", "clause": 0, "skill": "Weather", "step": "progress", "text": "…"}`;
  /// nil for `completed`, whose outcome is printed as the result.
  public func json() -> JSONValue? {
    switch self {
    case .parsing(let text):
      return .object([("event", .string("parsing")), ("text", .string(text))])
    case .routed(let clause, let intent, let route, let reason):
      return .object([
        ("event", .string("routed")), ("clause", .number(Double(clause))),
        ("intent", intent.map { .string($0) } ?? .null), ("route", .string(route.rawValue)),
        ("reason", .string(reason)),
      ])
    case .executing(let clause, let skill):
      return .object([
        ("event", .string("executing")), ("clause", .number(Double(clause))),
        ("skill", .string(skill)),
      ])
    case .step(let clause, let skill, let step):
      var members: [(String, JSONValue)] = [
        ("event", .string("step")), ("clause", .number(Double(clause))), ("skill", .string(skill)),
        ("step", .string(step.name)),
      ]
      if let text = step.text { members.append(("text", .string(text))) }
      return .object(members)
    case .finished(let clause, let outcome):
      return .object([
        ("event", .string("finished")), ("clause", .number(Double(clause))),
        ("skill", outcome.skill.map { .string($0) } ?? .null),
        ("summary", .string(outcome.summary)),
      ])
    case .failed(let clause, let skill, let message):
      return .object([
        ("event", .string("failed")), ("clause", .number(Double(clause))),
        ("skill", skill.map { .string($0) } ?? .null), ("message", .string(message)),
      ])
    case .completed:
      return nil
    }
  }
}
