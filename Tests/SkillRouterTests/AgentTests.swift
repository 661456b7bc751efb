import CloudFallback
import Foundation
import IntentEngine
import SkillRouter
import Skills
import TestSupport
import Testing

struct AgentTests {
  let context = ParseContext(
    now: Date(timeIntervalSince1970: 1_796_000_000),
    timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)

  func makeAgent(
    _ skills: [AnySkill] = [AnySkill(FakeTimerSkill())], cloud: (any LLMClient)? = nil,
    mode: RouteMode = .auto, clock: TestClock = TestClock(), offlineThreshold: Double? = nil,
    secrets: [String] = []
  ) throws -> (Agent<TestClock>, TemporaryDirectory) {
    let folder = try TemporaryDirectory()
    let engine = try TestGrammars.engine(in: folder.url, offlineThreshold: offlineThreshold)
    let agent = Agent(
      engine: engine, registry: try SkillRegistry(skills), executor: SkillExecutor(clock: clock),
      cloud: cloud, mode: mode, redactor: Redactor(secrets: secrets))
    return (agent, folder)
  }

  @Test func confidentUtteranceRunsItsSkillLocallyAndReportsProgress() async throws {
    let (agent, folder) = try makeAgent()
    defer { folder.remove() }
    var events: [String] = []
    var outcome: AgentOutcome?
    for await event in agent.events(for: "3分钟后提醒我关火", context: context) {
      switch event {
      case .parsing: events.append("parsing")
      case .routed(_, let intent, let route, _): events.append("routed \(intent ?? "-") \(route)")
      case .executing(_, let skill): events.append("executing \(skill)")
      case .finished: events.append("finished")
      case .step(_, _, let step): events.append("step \(step.name)")
      case .failed(_, _, let message): events.append("failed \(message)")
      case .completed(let final):
        events.append("completed")
        outcome = final
      }
    }
    #expect(
      events == [
        "parsing", "routed timer.start local", "executing Start timer", "finished", "completed",
      ])
    let json = try #require(outcome).json()
    #expect(json["route"] == .string("local"))
    #expect(json["result"]?["label"] == .string("关火"))
    #expect(json["result"]?["duration"] == .number(180))
    #expect(json["stale"] == .bool(false))
    #expect(json["error"] == .null)
  }

  @Test func clauseWithoutASkillReportsItAndTheOtherClauseStillRuns() async throws {
    let (agent, folder) = try makeAgent()
    defer { folder.remove() }
    let outcome = await agent.handle("看看天气顺便10分钟后提醒我关火", context: context)
    try #require(outcome.clauses.count == 2)
    #expect(outcome.clauses[0].error == "the skill for 'weather.query' is not available yet")
    #expect(outcome.clauses[1].result?["label"] == .string("关火"))
    #expect(outcome.hasFailure)
    let json = outcome.json()
    #expect(json["text"] == .string("看看天气顺便10分钟后提醒我关火"))
    guard case .array(let clauses) = json["clauses"] else {
      Issue.record("no clauses in \(json.jsonText)")
      return
    }
    #expect(clauses.map { $0["intent"] } == [.string("weather.query"), .string("timer.start")])
  }

  @Test func twoConcurrentClausesWhereOneFailsKeepTheirOwnResults() async throws {
    let (agent, folder) = try makeAgent([
      AnySkill(FakeTimerSkill()), AnySkill(BrokenWeatherSkill()),
    ])
    defer { folder.remove() }
    let outcome = await agent.handle("看看天气顺便10分钟后提醒我关火", context: context)
    try #require(outcome.clauses.count == 2)
    #expect(outcome.clauses[0].status == .failed)
    #expect(outcome.clauses[0].error == "weather service returned 500")
    #expect(outcome.clauses[1].result?["duration"] == .number(600))
  }

  @Test func unknownUtteranceIsNotUnderstoodWithWhatTheEngineCanDo() async throws {
    let (agent, folder) = try makeAgent()
    defer { folder.remove() }
    let outcome = await agent.handle("今天吃什么", context: context)
    let clause = try #require(outcome.clauses.first)
    #expect(clause.route == .unmatched)
    #expect(clause.routeReason == "no intent matched; no cloud model is configured")
    #expect(!outcome.hasFailure)
    guard case .notUnderstood(let suggestions) = clause.status else {
      Issue.record("expected not understood, got \(clause.status)")
      return
    }
    #expect(suggestions.contains("timer.start (start a countdown timer)"))
  }

  @Test func cloudDecisionIsPurifiedDecodedAndRun() async throws {
    let reply = """
      Sure! Here is the call:
      ```json
      {"Intent": "timer.start", "slots": {"duration": "60", "text": "吃饭",}, // one minute
       "confidence": "0.9"}
      ```
      """
    let client = ScriptedLLMClient(.reply(reply))
    let (agent, folder) = try makeAgent(cloud: client)
    defer { folder.remove() }
    let outcome = await agent.handle("今天吃什么", context: context)
    let clause = try #require(outcome.clauses.first)
    #expect(client.askedUtterances == ["今天吃什么"])
    #expect(clause.route == .cloud)
    #expect(clause.intent == "timer.start")
    #expect(clause.result?["duration"] == .number(60))
    #expect(clause.cloud?.purified?.hasPrefix(#"{"Intent": "timer.start""#) == true)
    let trace = Trace.record(of: outcome, at: context.now).jsonText
    #expect(trace.contains(#""raw_reply":"Sure! Here is the call:"#))
  }

  @Test func garbledCloudReplyFallsBackToTheOfflineGuess() async throws {
    let client = ScriptedLLMClient(.reply("I think you want a timer!"))
    let (agent, folder) = try makeAgent(cloud: client, offlineThreshold: 0.1)
    defer { folder.remove() }
    let outcome = await agent.handle("提醒我关火", context: context)
    let clause = try #require(outcome.clauses.first)
    #expect(clause.route == .offline)
    #expect(clause.routeReason.hasPrefix("the cloud failed: the cloud reply held no JSON object"))
    // The offline guess lacks its duration: it is asked for, not run.
    #expect(clause.status == .needsSlots(prompt: "请告诉我duration"))
    #expect(clause.missingSlots == ["duration"])
    #expect(clause.skill == nil)
  }

  @Test func cloudNamingAnUnknownIntentIsAFailureNotACall() async throws {
    let client = ScriptedLLMClient(.reply(#"{"intent": "rm.rf", "slots": {}}"#))
    let (agent, folder) = try makeAgent(cloud: client)
    defer { folder.remove() }
    let outcome = await agent.handle("今天吃什么", context: context)
    #expect(outcome.clauses.first?.route == .unmatched)
    #expect(outcome.clauses.first?.cloud?.error == "the cloud model named unknown intent 'rm.rf'")
  }

  @Test func cloudThatNeverAnswersTimesOutOnTheInjectedClock() async throws {
    let clock = TestClock()
    let client = ScriptedLLMClient(.hang)
    let (agent, folder) = try makeAgent(cloud: client, clock: clock, offlineThreshold: 0.1)
    defer { folder.remove() }
    async let outcome = agent.handle("提醒我关火", context: context)
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: LLMConfiguration.defaultTimeout)
    let clause = try #require(await outcome.clauses.first)
    #expect(clause.route == .offline)
    #expect(clause.cloud?.error == "no reply within the cloud timeout")
    #expect(clause.cloud?.elapsed == .seconds(10))
  }

  @Test func localModeNeverCallsTheCloud() async throws {
    let client = ScriptedLLMClient(.reply(#"{"intent": "timer.start"}"#))
    let (agent, folder) = try makeAgent(cloud: client, mode: .local)
    defer { folder.remove() }
    let outcome = await agent.handle("今天吃什么", context: context)
    #expect(client.askedUtterances.isEmpty)
    #expect(outcome.clauses.first?.route == .unmatched)
  }

  @Test func tracesNeverContainSecrets() async throws {
    let key = "sk-live-0123456789abcdef"
    let client = ScriptedLLMClient(
      .reply("echo: Authorization: Bearer \(key) {\"intent\": null, \"note\": \"\(key)\"}"))
    let (agent, folder) = try makeAgent(cloud: client, secrets: [key])
    defer { folder.remove() }
    let outcome = await agent.handle("今天吃什么", context: context)
    let trace = Trace.record(of: outcome, at: context.now).jsonText
    #expect(!trace.contains(key))
    #expect(!trace.contains("0123456789abcdef"))
    #expect(trace.contains("[redacted]"))
  }
}
