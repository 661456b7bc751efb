public import IntentEngine

/// Everything one utterance led to: the parse, each command's route and result, and timings.
public struct AgentOutcome: Sendable {
  /// The utterance.
  public var text: String
  /// The local parse of the whole utterance.
  public var parse: ParseResult
  /// One outcome per command, in the order they were said.
  public var clauses: [ClauseOutcome]
  /// The routing mode in force.
  public var mode: RouteMode
  /// The clock reading and zone the utterance was read against.
  public var context: ParseContext
  /// Time from the start to the end of handling, on the executor's clock.
  public var elapsed: Duration
  /// The question left open for the next utterance of the conversation, or nil.
  public var pendingQuestion: PendingQuestion? = nil
  /// The question this utterance answered, or nil when it was read on its own.
  public var answered: PendingQuestion? = nil
  /// The answer in words (``Agent/answer(_:events:)``): the model's final text, or the skills'
  /// own sentences without a model; nil when none was asked for or the answer loop failed.
  public var answer: String? = nil
  /// Why the answer loop ended without an answer; the results so far stay in ``clauses``.
  public var answerError: String? = nil

  /// Whether some command's skill failed with nothing cached (the CLI exits 1).
  public var hasFailure: Bool { clauses.contains { $0.hasFailed } }

  /// The `intent run --json` object: the first command's fields, plus `clauses` when there are
  /// several.
  public func json() -> JSONValue {
    var members: [(String, JSONValue)]
    if let first = clauses.first {
      members = first.json().members
      members.replace("text", with: .string(text))
      if clauses.count > 1 {
        members.append(("clauses", .array(clauses.map { $0.json() })))
      }
    } else {
      members = parse.json(includeExplanation: false).members
    }
    if answer != nil || answerError != nil {
      members.append(("answer", answer.map { .string($0) } ?? .null))
      if let answerError { members.append(("answer_error", .string(answerError))) }
    }
    return .object(members)
  }
}
