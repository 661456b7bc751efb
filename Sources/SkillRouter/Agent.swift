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
    cloudTimeout: Duration = LLMConfiguration.defaultTimeout, redactor: Redactor = Redactor()
  ) {
    self.engine = engine
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
    let parse = engine.parse(text, context: context)
    let parts = parse.clauses.count > 1 ? parse.clauses : [parse]
    let clauses = await withTaskGroup(of: (Int, ClauseOutcome).self) { group in
      for (index, part) in parts.enumerated() {
        group.addTask { (index, await self.process(part, index: index, events: events)) }
      }
      var results: [ClauseOutcome?] = Array(repeating: nil, count: parts.count)
      for await (index, outcome) in group { results[index] = outcome }
      return results.compactMap { $0 }
    }
    let outcome = AgentOutcome(
      text: text, parse: parse, clauses: clauses, mode: router.mode, context: context,
      elapsed: start.duration(to: executor.clock.now))
    events?.yield(.completed(outcome))
    return outcome
  }

  /// Routes and runs one command.
  func process(
    _ parse: ParseResult, index: Int, events: AsyncStream<AgentEvent>.Continuation?
  ) async -> ClauseOutcome {
    var step = router.firstStep(for: parse)
    var exchange: ClauseOutcome.CloudExchange?
    var cloudSlots: JSONValue?
    var cloudIntent: IntentID?
    if case .askCloud = step {
      let asked = await askCloud(parse)
      exchange = asked.exchange
      cloudIntent = asked.intent
      cloudSlots = asked.slots
      step = router.step(after: asked.answer, for: parse)
    }
    let route = step.route ?? .unmatched
    var outcome = ClauseOutcome(
      parse: parse, route: route, routeReason: step.reason, intent: nil, input: nil,
      cloud: exchange, skill: nil, status: .failed, error: nil, isInputError: false, attempts: 0,
      skillElapsed: .zero)
    switch step {
    case .local, .offline:
      outcome.intent = parse.intent
      outcome.input = parse.slotsJSON
    case .cloud:
      outcome.intent = cloudIntent
      outcome.input = cloudSlots ?? .object([])
    case .unmatched, .askCloud:
      outcome.status = .notUnderstood(suggestions: capabilities)
    }
    events?.yield(
      .routed(clause: index, intent: outcome.intent?.rawValue, route: route, reason: step.reason))
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
      call = try skill.call(with: Data(input.jsonText.utf8))
    } catch {
      outcome.error = error.description
      outcome.isInputError = true
      events?.yield(.failed(clause: index, skill: skill.displayName, message: error.description))
      return outcome
    }
    events?.yield(.executing(clause: index, skill: skill.displayName))
    let result = await executor.execute(call, cache: cache)
    outcome.attempts = result.attempts
    outcome.skillElapsed = result.elapsed
    outcome.error = result.error.map { redactor.redact($0.description) }
    switch result.status {
    case .succeeded(let data):
      outcome.status = .succeeded(Self.json(from: data))
    case .stale(let data, let age, _):
      outcome.status = .stale(Self.json(from: data), age: age)
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

  private struct CloudResult {
    var answer: Router.CloudAnswer
    var exchange: ClauseOutcome.CloudExchange
    var intent: IntentID?
    var slots: JSONValue?
  }

  /// Asks the cloud to classify a command, within the cloud timeout; never throws.
  private func askCloud(_ parse: ParseResult) async -> CloudResult {
    let start = executor.clock.now
    var exchange = ClauseOutcome.CloudExchange(
      rawReply: nil, purified: nil, error: nil, elapsed: .zero)
    func finish(_ answer: Router.CloudAnswer, intent: IntentID? = nil, slots: JSONValue? = nil)
      -> CloudResult
    {
      exchange.elapsed = start.duration(to: executor.clock.now)
      if case .failed(let reason) = answer { exchange.error = reason }
      return CloudResult(answer: answer, exchange: exchange, intent: intent, slots: slots)
    }
    guard let cloud else { return finish(.failed(reason: LLMConfiguration.notConfiguredMessage)) }
    let prompt = CloudPrompt(choices: engine.intents.map(Self.choice(for:)))
    let system = prompt.system
    let user = parse.text
    let raw: String
    do {
      raw = try await executor.withTimeout(cloudTimeout) {
        try await cloud.complete(system: system, user: user)
      }
    } catch {
      let reason =
        (error as? SkillError).map {
          if case .timedOut = $0 { return "no reply within the cloud timeout" }
          return $0.description
        } ?? String(describing: error)
      return finish(.failed(reason: redactor.redact(reason)))
    }
    exchange.rawReply = redactor.redact(String(raw.prefix(CloudReply.maximumReplyLength)))
    let reply: CloudReply
    do {
      reply = try CloudReply.decode(raw)
    } catch {
      exchange.purified = ReplyPurifier.purify(raw).map(redactor.redact)
      return finish(.failed(reason: error.description))
    }
    exchange.purified = redactor.redact(reply.purified)
    guard let name = reply.intent else { return finish(.noIntent) }
    guard let spec = engine.intents.first(where: { $0.id.rawValue == name }) else {
      return finish(.failed(reason: CloudFallbackError.unknownIntent(name).description))
    }
    let slots = Self.coerce((try? JSONValue(parsing: reply.slots)) ?? .object([]), to: spec)
    return finish(.decided(intent: name), intent: spec.id, slots: slots)
  }

  /// Keeps declared slots only, turning numbers sent as text into numbers where the type wants one.
  static func coerce(_ slots: JSONValue, to spec: IntentSpec) -> JSONValue {
    var kept: [(String, JSONValue)] = []
    for slot in spec.slots {
      guard let value = slots[slot.name], value != .null else { continue }
      switch (slot.type, value) {
      case (.duration, .string(let text)), (.number, .string(let text)):
        if let number = Double(text.trimmingCharacters(in: .whitespaces)) {
          kept.append((slot.name, .number(number)))
        } else {
          kept.append((slot.name, value))
        }
      default:
        kept.append((slot.name, value))
      }
    }
    return .object(kept)
  }

  static func choice(for spec: IntentSpec) -> CloudPrompt.IntentChoice {
    CloudPrompt.IntentChoice(
      id: spec.id.rawValue, description: spec.description,
      slots: spec.slots.map {
        "\($0.name): \($0.type.rawValue)\($0.isRequired ? " (required)" : "")"
      })
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
    cloudTimeout: Duration = LLMConfiguration.defaultTimeout, redactor: Redactor = Redactor()
  ) {
    self.init(
      engine: engine, registry: registry, executor: SkillExecutor(), cache: cache, cloud: cloud,
      mode: mode, cloudTimeout: cloudTimeout, redactor: redactor)
  }
}
