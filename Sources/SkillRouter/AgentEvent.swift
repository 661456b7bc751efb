/// Progress of one utterance, as the agent reports it to a UI or log.
public enum AgentEvent: Sendable {
  /// The utterance is being parsed.
  case parsing(text: String)
  /// Command `clause` was routed.
  case routed(clause: Int, intent: String?, route: RouteKind, reason: String)
  /// Command `clause` is running `skill`.
  case executing(clause: Int, skill: String)
  /// Command `clause` ended: a result (maybe stale) or "not understood".
  case finished(clause: Int, outcome: ClauseOutcome)
  /// Command `clause` failed with `message`; `skill` is nil when no skill ran.
  case failed(clause: Int, skill: String?, message: String)
  /// The whole utterance is done.
  case completed(AgentOutcome)
}
