public import CloudFallback
import Foundation
public import IntentEngine
public import Skills

/// Something that turns an utterance into an outcome, reporting progress; the agent, or a fake.
public protocol UtteranceHandling: Sendable {
  /// Handles one utterance, yielding progress to `events` when given, and returns the outcome.
  ///
  /// Conformers do not finish `events`; the caller owns it.
  func handle(
    _ text: String, context: ParseContext, events: AsyncStream<AgentEvent>.Continuation?
  ) async -> AgentOutcome

  /// Handles one utterance of a conversation in which `pending` waits for an answer, and returns
  /// the outcome with the question it leaves open.
  ///
  /// The default handles the utterance on its own, ignoring `pending`.
  func handle(
    _ text: String, answering pending: PendingQuestion?, context: ParseContext,
    events: AsyncStream<AgentEvent>.Continuation?
  ) async -> AgentOutcome

  /// What `text` reads as now, without running anything; nil when the handler cannot tell.
  ///
  /// The default is nil.
  func preview(_ text: String, context: ParseContext) -> TextPreview?
}

extension UtteranceHandling {
  public func preview(_ text: String, context: ParseContext) -> TextPreview? { nil }

  public func handle(
    _ text: String, answering pending: PendingQuestion?, context: ParseContext,
    events: AsyncStream<AgentEvent>.Continuation?
  ) async -> AgentOutcome {
    await handle(text, context: context, events: events)
  }
}

/// Handles one utterance end to end: parse, route (maybe via the cloud), execute each command's
/// skill concurrently, and report progress and the outcome.
public struct Agent<C: Clock<Duration>>: UtteranceHandling {
  /// The on-device classifier.
  public let engine: Engine
  /// The skills that can run.
  public let registry: SkillRegistry
  /// Runs skills with timeouts and retries.
  public let executor: SkillExecutor<C>
  /// Last good results of network skills, when kept.
  public let cache: LastGoodCache?
  /// The cloud model, when configured.
  public let cloud: (any LLMClient)?
  /// Validated cloud answers remembered for next time, when kept.
  public let memory: (any PhraseMemory)?
  /// The intents as the cloud prompt lists them.
  let cloudChoices: [CloudPrompt.IntentChoice]
  /// Longest wait for the cloud.
  public let cloudTimeout: Duration
  /// The routing policy.
  public let router: Router
  /// Hides secrets in anything recorded.
  public let redactor: Redactor

  /// Creates an agent.
  public init(
    engine: Engine, registry: SkillRegistry, executor: SkillExecutor<C>,
    cache: LastGoodCache? = nil, cloud: (any LLMClient)? = nil, mode: RouteMode = .auto,
    cloudTimeout: Duration = LLMConfiguration.defaultTimeout, redactor: Redactor = Redactor(),
    memory: (any PhraseMemory)? = nil
  ) {
    self.engine = engine
    self.memory = memory
    self.cloudChoices = cloud == nil ? [] : CloudPrompt.choices(for: engine)
    self.registry = registry
    self.executor = executor
    self.cache = cache
    self.cloud = cloud
    self.cloudTimeout = cloudTimeout
    self.redactor = redactor
    self.router = Router(
      mode: mode, isCloudAvailable: cloud != nil, calibration: engine.calibration)
  }

  /// What the engine can do, one description per intent, for "not understood" answers.
  public var capabilities: [String] {
    engine.intents.map { "\($0.id) (\($0.description))" }
  }

  /// What `text` reads as on the device now (a key typed into it redacted); nothing runs and
  /// the cloud is never asked.
  public func preview(_ text: String, context: ParseContext) -> TextPreview? {
    TextPreview(engine.parse(redactor.redactKnownSecrets(text), context: context))
  }

  /// Handles one utterance and returns a stream of its progress; the last event is `completed`.
  ///
  /// Dropping the stream cancels the work.
  public func events(for text: String, context: ParseContext) -> AsyncStream<AgentEvent> {
    AsyncStream { continuation in
      let task = Task {
        _ = await handle(text, context: context, events: continuation)
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  public func handle(
    _ text: String, context: ParseContext, events: AsyncStream<AgentEvent>.Continuation? = nil
  ) async -> AgentOutcome {
    let start = executor.clock.now
    // A key typed into the utterance goes no further: not into the trace, a label or the cloud.
    let text = redactor.redactKnownSecrets(text)
    events?.yield(.parsing(text: text))
    return await handle(
      text, parse: engine.parse(text, context: context), context: context, events: events,
      start: start)
  }

  /// Handles one utterance of a conversation: an answer to the pending question completes the
  /// command that asked ("set a timer", then "ten minutes"); anything else is handled on its own.
  ///
  /// The outcome's ``AgentOutcome/pendingQuestion`` is the question left open: the one this
  /// utterance asked, or still `pending` when the utterance was not understood at all. A question
  /// older than ``PendingQuestion/lifetime`` at `context.now` is dropped unanswered.
  public func handle(
    _ text: String, answering pending: PendingQuestion?, context: ParseContext,
    events: AsyncStream<AgentEvent>.Continuation? = nil
  ) async -> AgentOutcome {
    let start = executor.clock.now
    // A key typed into the utterance goes no further, an answer included.
    let text = redactor.redactKnownSecrets(text)
    events?.yield(.parsing(text: text))
    let parse = engine.parse(text, context: context)
    guard let pending, !pending.isExpired(at: context.now) else {
      return await handle(text, parse: parse, context: context, events: events, start: start)
    }
    let reader = FollowUpReader(engine: engine)
    guard
      case .answer(let answer) = reader.read(
        text, parse: parse, answering: pending, context: context)
    else {
      var outcome = await handle(text, parse: parse, context: context, events: events, start: start)
      let understood = outcome.clauses.contains {
        if case .notUnderstood = $0.status { return false }
        return true
      }
      if outcome.pendingQuestion == nil, !understood { outcome.pendingQuestion = pending }
      return outcome
    }
    let clause = await complete(pending, with: answer, text: text, parse: parse, events: events)
    var outcome = AgentOutcome(
      text: text, parse: clause.parse, clauses: [clause], mode: router.mode, context: context,
      elapsed: start.duration(to: executor.clock.now))
    outcome.answered = pending
    if let prompt = answer.prompt {
      var next = pending
      next.slots = answer.slots.members.map { PendingQuestion.Slot(name: $0.0, value: .init($0.1)) }
      next.missingSlots = answer.missingSlots
      next.prompt = prompt
      next.askedAt = context.now
      outcome.pendingQuestion = next
    }
    events?.yield(.completed(outcome))
    return outcome
  }

  /// Handles a parsed utterance on its own.
  private func handle(
    _ text: String, parse: ParseResult, context: ParseContext,
    events: AsyncStream<AgentEvent>.Continuation?, start: C.Instant
  ) async -> AgentOutcome {
    let parts = parse.clauses.count > 1 ? parse.clauses : [parse]
    let clauses = await withTaskGroup(of: (Int, ClauseOutcome).self) { group in
      for (index, part) in parts.enumerated() {
        group.addTask {
          (index, await self.process(part, index: index, context: context, events: events))
        }
      }
      var results: [ClauseOutcome?] = Array(repeating: nil, count: parts.count)
      for await (index, outcome) in group { results[index] = outcome }
      return results.compactMap { $0 }
    }
    var outcome = AgentOutcome(
      text: text, parse: parse, clauses: clauses, mode: router.mode, context: context,
      elapsed: start.duration(to: executor.clock.now))
    outcome.pendingQuestion =
      clauses.lazy.compactMap { Self.question(of: $0, at: context.now) }
      .first
    events?.yield(.completed(outcome))
    return outcome
  }

  /// The question a command leaves open, or nil when it did not ask for a slot.
  static func question(of clause: ClauseOutcome, at now: Date) -> PendingQuestion? {
    guard case .needsSlots(let prompt) = clause.status, let intent = clause.intent,
      !clause.missingSlots.isEmpty
    else { return nil }
    return PendingQuestion(
      intent: intent.rawValue, text: clause.parse.text,
      slots: (clause.input ?? clause.parse.slotsJSON).members.map {
        PendingQuestion.Slot(name: $0.0, value: .init($0.1))
      },
      missingSlots: clause.missingSlots, prompt: prompt, confidence: clause.parse.confidence,
      route: clause.route, askedAt: now)
  }

  /// Completes the command that asked `pending` with `answer`, running its skill when no slot is
  /// missing any more, else asking for the next one.
  private func complete(
    _ pending: PendingQuestion, with answer: FollowUpAnswer, text: String, parse: ParseResult,
    events: AsyncStream<AgentEvent>.Continuation?
  ) async -> ClauseOutcome {
    let reason = "answers '\(pending.prompt)' asked by '\(pending.text)'"
    let intent = IntentID(pending.intent)
    let answered = ParseResult(
      text: text, normalizedText: parse.normalizedText, intent: intent,
      confidence: pending.confidence, score: parse.score, route: .local, slots: answer.filled,
      missingSlots: answer.missingSlots, prompt: answer.prompt, alternatives: [],
      explanation: [Evidence(kind: .note, detail: reason, contribution: 0)])
    var outcome = ClauseOutcome(
      parse: answered, route: pending.route, routeReason: reason, intent: intent,
      input: answer.slots, cloud: nil, skill: nil, status: .failed, error: nil,
      isInputError: false, attempts: 0, skillElapsed: .zero)
    events?.yield(.routed(clause: 0, intent: intent.rawValue, route: outcome.route, reason: reason))
    if let prompt = answer.prompt {
      outcome.missingSlots = answer.missingSlots
      outcome.status = .needsSlots(prompt: prompt)
      events?.yield(.finished(clause: 0, outcome: outcome))
      return outcome
    }
    return await execute(outcome, index: 0, language: .of(pending.text), events: events)
  }

  /// Routes and runs one command.
  func process(
    _ parse: ParseResult, index: Int, context: ParseContext,
    events: AsyncStream<AgentEvent>.Continuation?
  ) async -> ClauseOutcome {
    var step = router.firstStep(for: parse)
    var exchange: ClauseOutcome.CloudExchange?
    var decided: CloudAnswerValidator.Answer?
    var cloudFailure: String?
    // A phrase the cloud resolved before answers offline, but never over a confident match.
    if step.route != .local, router.mode != .cloud, let memory,
      let phrase = await memory.recall(parse.normalizedText),
      let answer = recalled(phrase, for: parse, context: context)
    {
      decided = answer
      step = .learned(
        reason: "the cloud chose '\(phrase.intent)' for this phrase before (\(phrase.count)×)")
    }
    if case .askCloud = step {
      let asked = await askCloud(parse, context: context)
      exchange = asked.exchange
      decided = asked.answer
      step = router.step(after: asked.routerAnswer, for: parse)
      if case .failed(let reason) = asked.routerAnswer, router.mode == .cloud {
        cloudFailure = reason
      }
      if let answer = asked.answer, answer.missingSlots.isEmpty, let memory {
        await memory.remember(
          parse.normalizedText, intent: answer.intent.rawValue, slots: answer.slots)
      }
    }
    let route = step.route ?? .unmatched
    var outcome = ClauseOutcome(
      parse: parse, route: route, routeReason: step.reason, intent: nil, input: nil,
      cloud: exchange, skill: nil, status: .failed, error: nil, isInputError: false, attempts: 0,
      skillElapsed: .zero)
    outcome.cloudFailure = cloudFailure
    switch step {
    case .local, .offline:
      outcome.intent = parse.intent
      outcome.input = parse.slotsJSON
    case .cloud, .learned:
      outcome.intent = decided?.intent
      outcome.input = decided?.slots ?? .object([])
      outcome.missingSlots = decided?.missingSlots ?? []
    case .unmatched, .askCloud:
      outcome.status = .notUnderstood(suggestions: capabilities)
    }
    events?.yield(
      .routed(clause: index, intent: outcome.intent?.rawValue, route: route, reason: step.reason))
    if let question = followUp(for: outcome) {
      // A required slot left out is asked for, whoever decided the intent.
      outcome.missingSlots =
        outcome.missingSlots.isEmpty ? parse.missingSlots : outcome.missingSlots
      outcome.status = .needsSlots(prompt: question)
      events?.yield(.finished(clause: index, outcome: outcome))
      return outcome
    }
    return await execute(outcome, index: index, language: .of(parse.text), events: events)
  }

  /// Runs a failed command's skill again with the input it had, without parsing or routing the
  /// utterance again; any other command comes back unchanged.
  ///
  /// Progress goes to `events` under `index`, the command's position in its utterance.
  public func retry(
    _ clause: ClauseOutcome, index: Int = 0, events: AsyncStream<AgentEvent>.Continuation? = nil
  ) async -> ClauseOutcome {
    guard clause.status == .failed, clause.intent != nil, clause.input != nil else {
      return clause
    }
    var routed = clause
    routed.error = nil
    routed.isInputError = false
    routed.attempts = 0
    routed.skillElapsed = .zero
    return await execute(routed, index: index, language: .of(clause.parse.text), events: events)
  }

  /// Runs the skill of a routed command with its input, answering in `language`.
  func execute(
    _ routed: ClauseOutcome, index: Int, language: UserLanguage,
    events: AsyncStream<AgentEvent>.Continuation?
  ) async -> ClauseOutcome {
    var outcome = routed
    guard let intent = outcome.intent, let input = outcome.input else {
      events?.yield(.finished(clause: index, outcome: outcome))
      return outcome
    }
    guard let skill = registry.skill(for: intent.rawValue) else {
      outcome.error = SkillError.notAvailable(intent: intent.rawValue).description
      events?.yield(.failed(clause: index, skill: nil, message: outcome.error ?? ""))
      return outcome
    }
    outcome.skill = skill.displayName
    let call: SkillCall
    do {
      call = try skill.call(with: Data(Self.skillInput(input, language: language).jsonText.utf8))
    } catch {
      outcome.error = error.description
      outcome.isInputError = true
      events?.yield(.failed(clause: index, skill: skill.displayName, message: error.description))
      return outcome
    }
    events?.yield(.executing(clause: index, skill: skill.displayName))
    let name = skill.displayName
    let redactor = redactor
    let executor = executor
    let cache = cache
    let result = await SkillProgress.withReporter({ step in
      events?.yield(.step(clause: index, skill: name, step: Self.bounded(step, redactor: redactor)))
    }) {
      await executor.execute(call, cache: cache)
    }
    outcome.attempts = result.attempts
    outcome.skillElapsed = result.elapsed
    outcome.error = result.error.map { redactor.redact($0.description) }
    switch result.status {
    case .succeeded(let data):
      outcome.status = .succeeded(Self.json(from: data))
    case .stale(let data, let age, _):
      outcome.status = .stale(
        Self.markedStale(Self.json(from: data), age: age, language: language), age: age)
    case .failed:
      outcome.status = .failed
    }
    if outcome.hasFailed {
      events?.yield(.failed(clause: index, skill: skill.displayName, message: outcome.error ?? ""))
    } else {
      events?.yield(.finished(clause: index, outcome: outcome))
    }
    return outcome
  }

  /// A step with its text redacted and cut to ``SkillStep/maximumTextLength``.
  static func bounded(_ step: SkillStep, redactor: Redactor) -> SkillStep {
    func cut(_ text: String) -> String {
      String(redactor.redact(text).prefix(SkillStep.maximumTextLength))
    }
    switch step {
    case .started, .finished: return step
    case .progress(let text): return .progress(cut(text))
    case .failed(let text): return .failed(cut(text))
    }
  }

  /// The question for the first required slot still missing, or nil when none is.
  private func followUp(for outcome: ClauseOutcome) -> String? {
    guard let intent = outcome.intent else { return nil }
    switch outcome.route {
    case .local, .offline:
      guard let first = outcome.parse.missingSlots.first else { return nil }
      return outcome.parse.prompt
        ?? engine.intents.first { $0.id == intent }?.prompt(
          for: first, language: Self.language(of: outcome.parse.text))
    case .cloud, .learned:
      guard let first = outcome.missingSlots.first else { return nil }
      return engine.intents.first { $0.id == intent }?.prompt(
        for: first, language: Self.language(of: outcome.parse.text))
    case .unmatched:
      return nil
    }
  }

  /// `zh` when the text holds a Han character, else `en`.
  static func language(of text: String) -> String {
    text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } ? "zh" : "en"
  }

  /// A learned phrase as a validated answer for today: times are read again from the utterance
  /// at the current clock ("tomorrow" moves on), other slots are kept.
  private func recalled(
    _ phrase: LearnedPhrase, for parse: ParseResult, context: ParseContext
  ) -> CloudAnswerValidator.Answer? {
    let validator = CloudAnswerValidator(engine: engine, registry: registry)
    guard let spec = validator.spec(named: phrase.intent) else { return nil }
    var slots: [(String, JSONValue)] = []
    var missing: [String] = []
    for slot in spec.slots {
      var value = phrase.slots[slot.name]
      if slot.type == .datetime || slot.type == .date {
        value = engine.value(of: slot.type, in: parse.text, context: context)
          .map { $0.json(as: slot.type) }
      }
      if let value, value != .null {
        slots.append((slot.name, value))
      } else if slot.isRequired {
        missing.append(slot.name)
      }
    }
    return CloudAnswerValidator.Answer(
      intent: spec.id, slots: .object(slots), missingSlots: missing)
  }

  private struct CloudResult {
    var routerAnswer: Router.CloudAnswer
    var exchange: ClauseOutcome.CloudExchange
    var answer: CloudAnswerValidator.Answer?
  }

  /// Asks the cloud to classify a command, within the cloud timeout, and validates the reply;
  /// never throws.
  private func askCloud(_ parse: ParseResult, context: ParseContext) async -> CloudResult {
    let start = executor.clock.now
    let prompt = CloudPrompt(
      choices: cloudChoices, now: context.now, timeZone: context.timeZone)
    var exchange = ClauseOutcome.CloudExchange(
      rawReply: nil, purified: nil, error: nil, elapsed: .zero,
      promptTokens: prompt.estimatedTokens)
    func finish(_ answer: Router.CloudAnswer, validated: CloudAnswerValidator.Answer? = nil)
      -> CloudResult
    {
      exchange.elapsed = start.duration(to: executor.clock.now)
      if case .failed(let reason) = answer { exchange.error = reason }
      return CloudResult(routerAnswer: answer, exchange: exchange, answer: validated)
    }
    guard let cloud else { return finish(.failed(reason: LLMConfiguration.notConfiguredMessage)) }
    let request = CloudRequest(prompt: prompt, text: parse.text)
    let raw: String
    do {
      raw = try await executor.withTimeout(cloudTimeout) {
        try await cloud.complete(request)
      }
    } catch {
      let reason =
        (error as? SkillError).map {
          if case .timedOut = $0 { return "no reply within the cloud timeout" }
          return $0.description
        } ?? (error as? CloudFallbackError)?.description ?? "the cloud call failed"
      return finish(.failed(reason: redactor.redact(reason)))
    }
    exchange.rawReply = redactor.redact(
      String(raw.unicodeScalars.prefix(CloudReply.maximumReplyLength)))
    let reply: CloudReply
    do {
      reply = try CloudReply.decode(raw)
    } catch {
      exchange.purified = ReplyPurifier.purify(raw).map(redactor.redact)
      return finish(.failed(reason: redactor.redact(error.description)))
    }
    exchange.purified = redactor.redact(reply.purified)
    let validator = CloudAnswerValidator(engine: engine, registry: registry)
    do {
      guard let answer = try validator.validate(reply, context: context) else {
        return finish(.noIntent)
      }
      return finish(.decided(intent: answer.intent.rawValue), validated: answer)
    } catch {
      return finish(.failed(reason: redactor.redact(error.description)))
    }
  }

  /// The slots plus the user's language (`lang`), so that the skill answers in it.
  static func skillInput(_ slots: JSONValue, language: UserLanguage) -> JSONValue {
    guard case .object(var members) = slots,
      !members.contains(where: { $0.0 == UserLanguage.inputKey })
    else { return slots }
    members.append((UserLanguage.inputKey, .string(language.rawValue)))
    return .object(members)
  }

  /// The result with its `message` saying how old it is, in the user's language.
  static func markedStale(_ result: JSONValue, age: Double, language: UserLanguage) -> JSONValue {
    guard case .object(var members) = result,
      let index = members.firstIndex(where: { $0.0 == "message" }),
      case .string(let message) = members[index].1
    else { return result }
    let note = language.staleNote(age: age)
    members[index].1 = .string(message + language.say("（\(note)）", " (\(note))"))
    return .object(members)
  }

  static func json(from data: Data) -> JSONValue {
    (try? JSONValue(parsing: data)) ?? .string(String(decoding: data, as: UTF8.self))
  }
}

extension Agent where C == ContinuousClock {
  /// Creates an agent on the continuous clock with the default executor.
  public init(
    engine: Engine, registry: SkillRegistry, cache: LastGoodCache? = nil,
    cloud: (any LLMClient)? = nil, mode: RouteMode = .auto,
    cloudTimeout: Duration = LLMConfiguration.defaultTimeout, redactor: Redactor = Redactor(),
    memory: (any PhraseMemory)? = nil
  ) {
    self.init(
      engine: engine, registry: registry, executor: SkillExecutor(), cache: cache, cloud: cloud,
      mode: mode, cloudTimeout: cloudTimeout, redactor: redactor, memory: memory)
  }
}
