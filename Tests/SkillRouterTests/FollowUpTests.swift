import Foundation
import IntentEngine
import SkillRouter
import Skills
import TestSupport
import Testing

struct FollowUpTests {
  static let engine = Result { try Engine.load() }
  /// Monday 2026-11-30 09:00 in Shanghai, the fixtures' clock.
  let context = ParseContext(
    now: Date(timeIntervalSince1970: 1_796_000_400),
    timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)

  func makeAgent(_ skills: [AnySkill] = [AnySkill(FakeTimerSkill())]) throws -> Agent<TestClock> {
    Agent(
      engine: try Self.engine.get(), registry: try SkillRegistry(skills),
      executor: SkillExecutor(clock: TestClock()), mode: .local)
  }

  func later(_ seconds: TimeInterval) -> ParseContext {
    ParseContext(now: context.now.addingTimeInterval(seconds), timeZone: context.timeZone)
  }

  func question(_ text: String) throws -> PendingQuestion {
    let parse = try Self.engine.get().parse(text, context: context)
    return try #require(PendingQuestion(parse: parse, askedAt: context.now))
  }

  func answer(
    _ text: String, to pending: PendingQuestion, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> FollowUpAnswer? {
    let engine = try Self.engine.get()
    let reading = FollowUpReader(engine: engine).read(
      text, parse: engine.parse(text, context: context), answering: pending, context: context)
    guard case .answer(let answer) = reading else { return nil }
    return answer
  }

  @Test func questionExpiresAfterFiveMinutes() throws {
    let pending = try question("set a timer")
    #expect(PendingQuestion.lifetime == 300)
    #expect(!pending.isExpired(at: context.now))
    #expect(!pending.isExpired(at: later(300).now))
    #expect(pending.isExpired(at: later(301).now))
    #expect(pending.isExpired(at: later(-1).now), "a clock before the question cannot answer it")
    #expect(Conversation(pending: pending).activeQuestion(at: later(301).now) == nil)
  }

  @Test func commandWithoutItsDetailAsksAndRunsNothing() async throws {
    let outcome = try await makeAgent().handle("set a timer", context: context)
    let clause = try #require(outcome.clauses.first)
    #expect(clause.status == .needsSlots(prompt: "For how long?"))
    #expect(clause.skill == nil)
    let pending = try #require(outcome.pendingQuestion)
    #expect(pending.intent == "timer.start")
    #expect(pending.missingSlots == ["duration"])
    #expect(pending.askedAt == context.now)
  }

  @Test func answerCompletesTheCommandThatAsked() async throws {
    let agent = try makeAgent([AnySkill(FakeReminderSkill())])
    let asked = await agent.handle("remind me to call mom", context: context)
    let pending = try #require(asked.pendingQuestion)
    let outcome = await agent.handle("at 5pm", answering: pending, context: later(20))
    let json = outcome.json()
    #expect(json["intent"] == .string("reminder.create"))
    #expect(json["result"]?["message"] == .string("call mom at 2026-11-30T17:00:00+08:00"))
    #expect(json["missing_slots"] == nil)
    #expect(outcome.pendingQuestion == nil)
  }

  @Test func commandThatLacksItsDetailInATwoCommandUtteranceIsAskedFor() async throws {
    let agent = try makeAgent([AnySkill(FakeReminderSkill())])
    let asked = await agent.handle(
      "check the weather and remind me to take an umbrella", context: context)
    #expect(asked.clauses.count == 2)
    let pending = try #require(asked.pendingQuestion)
    #expect(pending.intent == "reminder.create")
    #expect(pending.text == "remind me to take an umbrella")
    let outcome = await agent.handle("at 8", answering: pending, context: later(5))
    #expect(
      outcome.json()["result"]?["message"]
        == .string("take an umbrella at 2026-11-30T20:00:00+08:00"))
  }

  @Test func questionAfterACloudDecisionIsAnsweredWithoutAskingAgain() async throws {
    let client = ScriptedLLMClient(
      .reply(#"{"intent": "timer.start", "slots": {"text": "pasta"}}"#))
    let agent = Agent(
      engine: try Self.engine.get(), registry: try SkillRegistry([AnySkill(FakeTimerSkill())]),
      executor: SkillExecutor(clock: TestClock()), cloud: client, mode: .auto)
    let asked = await agent.handle("keep an eye on the pasta for me", context: context)
    let pending = try #require(asked.pendingQuestion)
    #expect(pending.route == .cloud)
    #expect(pending.slotsJSON == .object([("text", .string("pasta"))]))
    let outcome = await agent.handle("eleven minutes", answering: pending, context: later(15))
    let json = outcome.json()
    #expect(json["route"] == .string("cloud"))
    #expect(json["result"]?["label"] == .string("pasta"))
    #expect(json["result"]?["duration"] == .number(660))
    #expect(client.askedUtterances == ["keep an eye on the pasta for me"])
  }

  @Test func chineseAnswerFillsTheReminderTime() throws {
    let pending = try question("帮我定个闹钟")
    #expect(pending.prompt == "什么时候提醒你？")
    let answer = try #require(try answer("明天早上七点", to: pending))
    #expect(answer.isComplete)
    #expect(answer.slots["datetime"] == .string("2026-12-01T07:00:00+08:00"))
  }

  @Test func answerKeepsTheSlotsAlreadySaid() throws {
    let answer = try #require(try answer("at 5pm", to: question("remind me to call mom")))
    #expect(answer.slots["datetime"] == .string("2026-11-30T17:00:00+08:00"))
    #expect(answer.slots["text"] == .string("call mom"))
    #expect(answer.missingSlots.isEmpty)
  }

  @Test func directionOfASignedDurationComesFromTheQuestion() throws {
    let pending = try question("shorten the timer")
    #expect(pending.intent == "timer.adjust")
    #expect(try answer("30 seconds", to: pending)?.slots["duration"] == .number(-30))
    let adding = try question("extend the timer")
    #expect(try answer("by ten minutes", to: adding)?.slots["duration"] == .number(600))
  }

  @Test func newConfidentCommandReplacesTheQuestion() async throws {
    let agent = try makeAgent()
    let pending = try question("set a timer")
    #expect(try answer("what's the weather in Paris tomorrow", to: pending) == nil)
    let outcome = await agent.handle(
      "remind me to call mom at 5pm", answering: pending, context: context)
    #expect(outcome.clauses.first?.intent == "reminder.create")
    #expect(outcome.pendingQuestion == nil, "the timer question is dropped")
  }

  @Test func somethingNotUnderstoodLeavesTheQuestionOpen() async throws {
    let agent = try makeAgent()
    let pending = try question("set a timer")
    let mumble = await agent.handle("hmm", answering: pending, context: later(10))
    guard case .notUnderstood = mumble.clauses.first?.status else {
      Issue.record("expected not understood, got \(String(describing: mumble.clauses.first))")
      return
    }
    #expect(mumble.pendingQuestion == pending)
    let outcome = await agent.handle("ten minutes", answering: pending, context: later(30))
    #expect(outcome.json()["result"]?["duration"] == .number(600))
  }

  @Test func expiredQuestionIsNotAnswered() async throws {
    let agent = try makeAgent()
    let pending = try question("set a timer")
    let outcome = await agent.handle("ten minutes", answering: pending, context: later(301))
    #expect(outcome.clauses.first?.skill == nil)
    #expect(outcome.json()["result"] == .null)
    #expect(outcome.pendingQuestion == nil)
  }

  @Test func replayReadsAnAnswerWithTheQuestionItAnswered() async throws {
    let agent = try makeAgent()
    let pending = try question("set a timer")
    let outcome = await agent.handle("ten minutes", answering: pending, context: later(10))
    let record = Trace.record(of: outcome, at: context.now)
    #expect(record["answers"]?["text"] == .string("set a timer"))
    let replayer = Replayer(engine: try Self.engine.get())
    let same = try replayer.replay(record, line: 1).get()
    #expect(same.changes == [])
    // Without its question the same words would not be a command.
    guard case .object(var members) = record else { return }
    members.removeAll { $0.0 == "answers" }
    let alone = try replayer.replay(.object(members), line: 1).get()
    #expect(alone.changes.contains("intent: timer.start → none"), "\(alone.changes)")
  }

  @Test func pendingQuestionSurvivesEncoding() throws {
    let pending = try question("remind me to call mom")
    let data = try JSONEncoder().encode(Conversation(pending: pending))
    let decoded = try JSONDecoder().decode(Conversation.self, from: data)
    #expect(decoded.pending == pending)
    #expect(decoded.pending?.slotsJSON == .object([("text", .string("call mom"))]))
  }

  @MainActor @Test func appSessionAnswersItsOwnQuestion() async throws {
    let session = AgentSession(handler: try makeAgent(), context: { [context] in context })
    #expect(await session.submit("set a timer"))
    #expect(session.pendingQuestion?.prompt == "For how long?")
    #expect(
      session.state == .finished(SessionResult(lines: ["For how long?"], hasPartialFailure: false)))
    session.reset()
    #expect(await session.submit("ten minutes"))
    #expect(session.pendingQuestion == nil)
    #expect(session.lastOutcome?.json()["result"]?["duration"] == .number(600))
  }
}

/// A reminder skill that only says what it was asked to remember and when.
struct FakeReminderSkill: Skill {
  struct Input: Decodable, Sendable {
    var datetime: String
    var text: String?
  }
  struct Output: Encodable, Sendable { var message: String }
  var intentID: String { "reminder.create" }
  var displayName: String { "Create reminder" }

  func perform(_ input: Input) async throws -> Output {
    Output(message: "\(input.text ?? "reminder") at \(input.datetime)")
  }
}
