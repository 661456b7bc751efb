import Foundation
import IntentEngine
@testable import SkillRouter
import Skills
import TestSupport
import Testing

/// A timer skill that reports three steps while it runs, one of them from a child task.
struct SteppingTimerSkill: Skill {
  struct Input: Decodable, Sendable {
    var duration: Double
    var text: String?
  }
  struct Output: Encodable, Sendable { var message: String }
  var intentID: String { "timer.start" }
  var displayName: String { "Start timer" }

  func perform(_ input: Input) async throws -> Output {
    SkillProgress.report(.started)
    await withTaskGroup(of: Void.self) { group in
      group.addTask { SkillProgress.report(.progress("setting \(Int(input.duration)) s")) }
    }
    SkillProgress.report(.finished)
    return Output(message: "timer set")
  }
}

/// A weather skill whose stage fails, reporting it.
struct SteppingBrokenWeatherSkill: Skill {
  struct Input: Decodable, Sendable { var text: String? }
  struct Output: Encodable, Sendable { var message: String }
  var intentID: String { "weather.query" }
  var displayName: String { "Weather" }

  func perform(_ input: Input) async throws -> Output {
    SkillProgress.report(.started)
    SkillProgress.report(.failed("the service is down"))
    throw SkillError.unavailable("the service is down")
  }
}

struct SkillProgressTests {
  let context = ParseContext(
    now: Date(timeIntervalSince1970: 1_796_000_000),
    timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)

  @Test func stepsReachTheEventStreamInOrderForTheirClause() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let engine = try TestGrammars.engine(in: folder.url)
    let agent = Agent(
      engine: engine,
      registry: try SkillRegistry([
        AnySkill(SteppingTimerSkill()), AnySkill(SteppingBrokenWeatherSkill()),
      ]),
      executor: SkillExecutor(clock: TestClock(), retryPolicy: .never))
    var steps: [Int: [SkillStep]] = [:]
    var intents: [Int: String] = [:]
    var order: [String] = []
    for await event in agent.events(for: "看看天气顺便10分钟后提醒我关火", context: context) {
      switch event {
      case .routed(let clause, let intent, _, _): intents[clause] = intent
      case .executing(let clause, _): order.append("executing \(clause)")
      case .step(let clause, _, let step):
        steps[clause, default: []].append(step)
        order.append("step \(clause) \(step.name)")
      case .finished(let clause, _), .failed(let clause, _, _): order.append("ended \(clause)")
      case .parsing, .completed: break
      }
    }
    let timer = try #require(intents.first { $0.value == "timer.start" }?.key)
    let weather = try #require(intents.first { $0.value == "weather.query" }?.key)
    #expect(steps[timer] == [.started, .progress("setting 600 s"), .finished])
    #expect(steps[weather] == [.started, .failed("the service is down")])
    // Within a clause, its steps come after it starts executing and before it ends.
    let timerEvents = order.filter { $0.hasSuffix(" \(timer)") || $0.contains(" \(timer) ") }
    #expect(
      timerEvents == [
        "executing \(timer)", "step \(timer) started", "step \(timer) progress",
        "step \(timer) finished", "ended \(timer)",
      ])
  }

  @Test func aStepTextIsRedactedAndBounded() {
    let long = String(repeating: "x", count: 500) + " sk-secret"
    let redactor = Redactor(secrets: ["sk-secret"])
    let bounded = Agent<TestClock>.bounded(.progress("key sk-secret"), redactor: redactor)
    #expect(bounded.text?.contains("sk-secret") == false)
    let cut = Agent<TestClock>.bounded(.failed(long), redactor: redactor)
    #expect(cut.text?.count == SkillStep.maximumTextLength)
  }

  @Test @MainActor func theSessionShowsEachSkillsSteps() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let engine = try TestGrammars.engine(in: folder.url)
    let agent = Agent(engine: engine, registry: try SkillRegistry([AnySkill(SteppingTimerSkill())]))
    let session = AgentSession(handler: agent)
    #expect(await session.submit("3分钟后提醒我关火"))
    #expect(session.steps == ["Start timer": [.started, .progress("setting 180 s"), .finished]])
  }
}

/// A timer whose first call fails.
actor FlakyTimerService {
  var calls = 0
  func call() throws -> Int {
    calls += 1
    if calls == 1 { throw SkillError.unavailable("the timer service is busy") }
    return calls
  }
}

struct FlakyTimerSkill: Skill {
  struct Input: Decodable, Sendable { var duration: Double }
  struct Output: Encodable, Sendable { var message: String }
  let service: FlakyTimerService
  var intentID: String { "timer.start" }
  var displayName: String { "Start timer" }
  func perform(_ input: Input) async throws -> Output {
    let call = try await service.call()
    return Output(message: "timer set on call \(call)")
  }
}

struct RetryTests {
  @Test func aFailedCommandIsRetriedOnItsOwnWithTheSameInput() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let service = FlakyTimerService()
    let agent = Agent(
      engine: try TestGrammars.engine(in: folder.url),
      registry: try SkillRegistry([AnySkill(FlakyTimerSkill(service: service))]),
      executor: SkillExecutor(clock: TestClock(), retryPolicy: .never))
    let context = ParseContext(
      now: Date(timeIntervalSince1970: 1_796_000_000),
      timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)
    let outcome = await agent.handle("3分钟后提醒我关火", context: context)
    let failed = try #require(outcome.clauses.first)
    #expect(failed.status == .failed)
    #expect(failed.error?.contains("busy") == true)
    let retried = await agent.retry(failed)
    #expect(retried.status == .succeeded(.object([("message", .string("timer set on call 2"))])))
    #expect(retried.error == nil)
    #expect(retried.input == failed.input)
    #expect(retried.parse.text == failed.parse.text)
    // A command that did not fail is not run again.
    let again = await agent.retry(retried)
    #expect(again.summary == "timer set on call 2")
    #expect(await service.calls == 2)
  }
}
