import CloudFallback
import Foundation
import IntentEngine
import Skills

extension Agent {
  /// Most model turns in one answer loop: a reply that still calls skills after this many ends
  /// the loop with an error, so a model that never stops cannot run skills forever.
  public static var maximumAnswerRounds: Int { 5 }

  /// Most calls run from one model turn; further calls get an error result.
  public static var maximumCallsPerRound: Int { 8 }

  /// Adds an answer in words to a handled utterance.
  ///
  /// With a cloud ``ChatModel``, the skills that ran go to the model as tool calls with their
  /// results as `tool` messages; each further call it asks for is validated like a first cloud
  /// answer and run (a failed skill goes back as an error result, an unregistered name as
  /// "no such skill"), until it answers in text, for at most ``maximumAnswerRounds`` turns,
  /// each within the cloud timeout. Without one (or in `local` mode, which never calls the
  /// cloud), the answer is the skills' own sentences.
  /// Skills run on the model's request are appended to ``AgentOutcome/clauses``.
  public func answer(
    _ handled: AgentOutcome, events: AsyncStream<AgentEvent>.Continuation? = nil
  ) async -> AgentOutcome {
    var outcome = handled
    guard router.mode != .local, let model = cloud as? any ChatModel else {
      outcome.answer = outcome.clauses.map(\.summary).joined(separator: "\n")
      return outcome
    }
    let context = outcome.context
    let prompt = CloudPrompt(choices: cloudChoices, now: context.now, timeZone: context.timeZone)
    let names = ToolNames(ids: cloudChoices.map(\.id))
    var messages = [
      ChatMessage(role: .system, content: ChatConversation.answerSystem(for: prompt)),
      ChatMessage(role: .user, content: CloudPrompt.userMessage(for: outcome.text)),
    ]
    let ran = outcome.clauses.enumerated().compactMap { index, clause -> (String, ChatToolCall)? in
      guard let intent = clause.intent, let result = Self.toolResult(of: clause) else {
        return nil
      }
      let call = ChatToolCall(
        id: "call_local_\(index + 1)", intent: intent.rawValue,
        function: names.functionName(for: intent.rawValue),
        arguments: (clause.input ?? .object([])).jsonText)
      return (result, call)
    }
    if !ran.isEmpty {
      messages.append(ChatMessage(role: .assistant, content: nil, toolCalls: ran.map(\.1)))
      for (result, call) in ran {
        messages.append(.toolResult(redactor.redact(result), for: call.id))
      }
    }
    for round in 1...Self.maximumAnswerRounds {
      let conversation = ChatConversation(prompt: prompt, messages: messages)
      let turn: ChatTurn
      do {
        turn = try await executor.withTimeout(cloudTimeout) {
          try await model.reply(to: conversation)
        }
      } catch {
        let reason =
          (error as? SkillError).map {
            if case .timedOut = $0 { return "no reply within the cloud timeout" }
            return $0.description
          } ?? (error as? CloudFallbackError)?.description ?? "the cloud call failed"
        outcome.answerError = redactor.redact("no answer: \(reason)")
        return outcome
      }
      guard !turn.toolCalls.isEmpty else {
        let text = turn.content.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty {
          outcome.answerError = "the cloud model answered with no text; the results are kept"
        } else {
          outcome.answer = redactor.redact(text)
        }
        return outcome
      }
      guard round < Self.maximumAnswerRounds else { break }
      messages.append(
        ChatMessage(
          role: .assistant, content: turn.content.isEmpty ? nil : turn.content,
          toolCalls: turn.toolCalls))
      for (position, call) in turn.toolCalls.enumerated() {
        guard position < Self.maximumCallsPerRound else {
          messages.append(
            .toolResult(
              Self.errorResult(
                "too many calls in one turn; call at most \(Self.maximumCallsPerRound)"),
              for: call.id))
          continue
        }
        let (result, clause) = await run(
          call, for: outcome, index: outcome.clauses.count, names: names, events: events)
        if let clause { outcome.clauses.append(clause) }
        messages.append(.toolResult(redactor.redact(result), for: call.id))
      }
    }
    outcome.answerError =
      "the cloud model still called skills after \(Self.maximumAnswerRounds) rounds; "
      + "no answer, the results so far are kept"
    return outcome
  }

  /// Validates and runs one call the model asked for; returns the tool message's content and,
  /// when a skill ran, its outcome.
  private func run(
    _ call: ChatToolCall, for outcome: AgentOutcome, index: Int, names: ToolNames,
    events: AsyncStream<AgentEvent>.Continuation?
  ) async -> (String, ClauseOutcome?) {
    guard cloudChoices.contains(where: { $0.id == call.intent }),
      registry.skill(for: call.intent) != nil
    else {
      let known = cloudChoices.map(\.id).filter { registry.skill(for: $0) != nil }
      return (
        "no such skill; the skills are: "
          + known.map { names.functionName(for: $0) }.joined(separator: ", "), nil
      )
    }
    let validator = CloudAnswerValidator(engine: engine, registry: registry)
    let answer: CloudAnswerValidator.Answer
    do {
      guard
        let validated = try validator.validate(
          try CloudReply.decode(call.replyText), context: outcome.context)
      else { return (Self.errorResult("no skill was named"), nil) }
      answer = validated
    } catch {
      return (Self.errorResult(error.description), nil)
    }
    guard answer.missingSlots.isEmpty else {
      let missing = answer.missingSlots.map { "'\($0)'" }.joined(separator: ", ")
      return (Self.errorResult("required slots missing: \(missing)"), nil)
    }
    let reason = "the cloud model called '\(answer.intent.rawValue)' while answering"
    let routed = ClauseOutcome(
      parse: outcome.parse, route: .cloud, routeReason: reason, intent: answer.intent,
      input: answer.slots, cloud: nil, skill: nil, status: .failed, error: nil,
      isInputError: false, attempts: 0, skillElapsed: .zero)
    events?.yield(
      .routed(clause: index, intent: answer.intent.rawValue, route: .cloud, reason: reason))
    let clause = await execute(routed, index: index, language: .of(outcome.text), events: events)
    return (Self.toolResult(of: clause) ?? Self.errorResult("the skill did not run"), clause)
  }

  /// What a command's skill returned, as a tool message: the result, or `{"error": …}` when
  /// it failed; nil when no skill ran.
  static func toolResult(of clause: ClauseOutcome) -> String? {
    switch clause.status {
    case .succeeded(let value), .stale(let value, _): return value.jsonText
    case .failed:
      guard clause.skill != nil || clause.error != nil else { return nil }
      return errorResult(clause.error ?? "the skill failed")
    case .needsSlots(let prompt):
      return JSONValue.object([
        ("missing_slots", .array(clause.missingSlots.map { .string($0) })),
        ("question", .string(prompt)),
      ]).jsonText
    case .notUnderstood: return nil
    }
  }

  static func errorResult(_ message: String) -> String {
    JSONValue.object([("error", .string(message))]).jsonText
  }
}
