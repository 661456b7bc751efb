import BuiltinSkills
import CloudFallback
import Foundation
import IntentEngine
import SkillRouter
import Skills

/// `intent run`: parses, routes and executes an utterance, printing what was done.
enum RunCommand {
  static let usage = """
    Usage: intent run [--json] [--answer] [--events] [--route auto|local|cloud]
                      [--trace <file>] [--session <file>]
                      [--now <ISO 8601>] [--time-zone <zone>] [--grammars <dir>]… [--no-builtin]
                      [<text>]

      <text>           the utterance; read from standard input when omitted
      --json           print one JSON object: the parse result plus route, result, stale,
                       age_seconds and error (and clauses for several commands)
      --answer         answer in words (JSON: answer): the cloud model's reply from the skills'
                       results, which go back to it (it may call further skills, at most 5
                       rounds); without a cloud model, the skills' own sentences
      --events         print progress as JSON lines while the command runs (routed, executing,
                       each step a skill reports, finished, failed), before the result
      --route          auto: local when confident, else the cloud when configured, else the
                       local guess above the offline threshold (default: $INTENT_ROUTE, else auto)
                       local: never call the cloud; cloud: always ask it
      --trace          append one JSON line describing the decision to this file
      --session        keep the conversation's pending question in this file: a command that
                       lacks a detail asks for it (missing_slots, prompt) and runs nothing; the
                       next run's utterance answers it ("ten minutes") and runs the command; a
                       question expires after 5 minutes on the --now clock
      --now            the clock to read relative times and start timers against (default: now)
      --time-zone      the zone for clock times (default: $TZ, else the system zone)
      --grammars       a folder of user grammars, loaded next to the built-ins (repeatable)
      --no-builtin     load only the folders given with --grammars

    A cloud answer that validated is remembered ('intent learned') and answers the same phrase
    offline next time (route 'learned'). Cloud: INTENT_LLM_BASE_URL, INTENT_LLM_MODEL,
    INTENT_LLM_API_KEY, INTENT_LLM_TIMEOUT (s, default 10), INTENT_LLM_FORMAT (json_object,
    json_schema or tools), INTENT_LLM_STREAM=1.

    Data (timers, last-good cache, learned phrases) lives in $INTENT_DATA_DIR, else $XDG_DATA_HOME/skillrouter,
    else ~/.local/share/skillrouter. Exit codes: 0 done (also "not understood"), 1 a skill
    failed with nothing cached, 2 usage.

    """

  static func run(_ arguments: [String], io: CommandIO) async throws -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(
      arguments, flags: EngineOptions.flags.union(["--json", "--answer", "--events"]),
      options: EngineOptions.options.union(["--route", "--trace", "--session"]))
    let mode = try routeMode(parsed, environment: io.environment)
    let options = try EngineOptions(parsed, io: io)
    let text: String
    if parsed.positional.isEmpty {
      guard let input = String(data: io.readInput(), encoding: .utf8) else {
        io.writeError("error: standard input is not valid UTF-8\n")
        return 1
      }
      text = input.trimmingTrailingNewlines
    } else {
      text = parsed.positional.joined(separator: " ")
    }

    let llm = LLMConfiguration(environment: io.environment)
    let cloud = makeLLMClient(llm, mode: mode)
    if mode == .cloud, cloud == nil {
      io.writeError("error: \(LLMConfiguration.notConfiguredMessage)\n")
      return 1
    }
    guard let engine = options.loadEngine(io: io) else { return 1 }
    let runtime: Runtime
    do {
      runtime = try Runtime(
        options: options, hasExplicitNow: parsed.value("--now") != nil, io: io)
    } catch {
      io.writeError("error: \(error)\n")
      return 1
    }
    for message in runtime.registry.coverage(ofDeclaredIntents: engine.intents.map(\.id.rawValue))
      .messages
    {
      io.writeError("note: \(message)\n")
    }
    let agent = Agent(
      engine: engine, registry: runtime.registry, cache: runtime.cache, cloud: cloud, mode: mode,
      cloudTimeout: llm.timeout, redactor: Redactor(secrets: llm.apiKey.map { [$0] } ?? []),
      memory: LearnedPhraseStore(
        directory: runtime.dataDirectory, wallClock: runtime.wallClock, problems: runtime.problems))
    let session = parsed.value("--session").map {
      StoreFile<Conversation>(
        url: io.url(forPath: $0), kind: "session file", wallClock: runtime.wallClock,
        problems: runtime.problems)
    }
    var pending: PendingQuestion?
    if let session {
      do {
        pending = try await session.read().activeQuestion(at: options.context.now)
      } catch {
        io.writeError("error: \(error)\n")
        return 1
      }
    }
    // With --events, each event is printed as one JSON line as it happens, before the result.
    var printer: Task<Void, Never>?
    var events: AsyncStream<AgentEvent>.Continuation?
    if parsed.has("--events") {
      let (stream, continuation) = AsyncStream<AgentEvent>.makeStream()
      events = continuation
      printer = Task {
        for await event in stream {
          if let line = event.json()?.jsonText { io.write(line + "\n") }
        }
      }
    }
    var outcome = await agent.handle(
      text, answering: pending, context: options.context, events: events)
    if parsed.has("--answer") {
      outcome = await agent.answer(outcome, events: events)
    }
    events?.finish()
    await printer?.value

    var status: Int32 = outcome.hasFailure || outcome.answerError != nil ? 1 : 0
    if let session {
      do {
        try await session.update { $0.pending = outcome.pendingQuestion }
      } catch {
        io.writeError("error: \(error)\n")
        status = 1
      }
    }
    if let path = parsed.value("--trace") {
      do {
        try Trace.append(
          Trace.record(of: outcome, at: runtime.wallClock.now), to: io.url(forPath: path))
      } catch {
        io.writeError("error: \(error)\n")
        status = 1
      }
    }
    for problem in await runtime.problems.drain() {
      io.writeError("warning: \(problem)\n")
    }
    if let error = outcome.answerError { io.writeError("error: \(error)\n") }
    if parsed.has("--json") {
      io.write(outcome.json().prettyJSONText + "\n")
    } else if parsed.has("--answer") {
      io.write(outcome.answer.map { $0 + "\n" } ?? describe(outcome))
    } else {
      io.write(describe(outcome))
    }
    return status
  }

  /// The cloud client for the configuration; nil (and no socket ever opened) when the endpoint
  /// or the model is not set, or when `--route local` rules the cloud out.
  static func makeLLMClient(_ configuration: LLMConfiguration, mode: RouteMode = .auto)
    -> (any LLMClient)?
  {
    guard mode != .local, configuration.isComplete else { return nil }
    return OpenAICompatibleClient(configuration: configuration)
  }

  /// The route mode from `--route`, else `INTENT_ROUTE`, else `auto`.
  static func routeMode(_ arguments: Arguments, environment: [String: String]) throws(UsageError)
    -> RouteMode
  {
    if let value = arguments.value("--route") {
      guard let mode = RouteMode(rawValue: value) else {
        throw UsageError(message: RouteMode.invalidValueMessage(value, source: "'--route'"))
      }
      return mode
    }
    if let value = environment["INTENT_ROUTE"], !value.isEmpty {
      guard let mode = RouteMode(rawValue: value) else {
        throw UsageError(message: RouteMode.invalidValueMessage(value, source: "INTENT_ROUTE"))
      }
      return mode
    }
    return .auto
  }

  /// Renders an outcome for people.
  static func describe(_ outcome: AgentOutcome) -> String {
    if outcome.clauses.count > 1 {
      var out = "\(outcome.clauses.count) commands in '\(outcome.text)'\n"
      for (index, clause) in outcome.clauses.enumerated() {
        out += "\n[\(index + 1)] " + describe(clause)
      }
      return out
    }
    guard let clause = outcome.clauses.first else { return "not understood\n" }
    return describe(clause)
  }

  private static func describe(_ clause: ClauseOutcome) -> String {
    var out = "\(clause.parse.text)\n"
    out += "  intent        \(clause.intent?.rawValue ?? "(none: not understood)")\n"
    out += "  route         \(clause.route.rawValue) (\(clause.routeReason))\n"
    if let cloud = clause.cloud {
      out += "  cloud         \(Int(Trace.milliseconds(cloud.elapsed).rounded())) ms\n"
    }
    if let failure = clause.cloudFailure { out += "  error         \(failure)\n" }
    if let skill = clause.skill {
      let attempts = clause.attempts > 1 ? ", \(clause.attempts) attempts" : ""
      out += "  skill         \(skill)\(attempts)\n"
    }
    switch clause.status {
    case .succeeded, .stale:
      out += "  result        \(clause.summary)\n"
    case .failed:
      out += "  error         \(clause.error ?? "the skill failed")\n"
    case .needsSlots(let prompt):
      out += "  missing       \(clause.missingSlots.joined(separator: ", "))\n"
      out += "  question      \(prompt)\n"
    case .notUnderstood(let suggestions):
      out += "  result        not understood\n"
      for suggestion in suggestions { out += "  can do        \(suggestion)\n" }
    }
    return out
  }
}

/// The stores and skills a command needs, under the data directory.
struct Runtime {
  let dataDirectory: URL
  let wallClock: WallClock
  let problems = ProblemLog()
  let registry: SkillRegistry
  let cache: LastGoodCache

  /// The folder of the last-good cache under the data directory.
  static let cacheFolder = "cache"

  init(options: EngineOptions, hasExplicitNow: Bool, io: CommandIO) throws(SkillError) {
    dataDirectory = DataDirectory.url(environment: io.environment)
    // `--now` pins the clock for skills too, so a timer started "now" fires at --now + duration.
    let now = hasExplicitNow ? options.context.now : nil
    wallClock = now.map(WallClock.fixed) ?? .system
    registry = try SkillRegistry(
      Builtins.makeSkills(
        dataDirectory: dataDirectory, wallClock: wallClock, timeZone: options.context.timeZone,
        problems: problems, environment: io.environment))
    cache = LastGoodCache(
      directory: dataDirectory.appendingPathComponent(Self.cacheFolder), wallClock: wallClock,
      problems: problems)
  }
}
