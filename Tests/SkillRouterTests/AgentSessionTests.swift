import Foundation
import IntentEngine
import SkillRouter
import Skills
import TestSupport
import Testing

@MainActor
struct AgentSessionTests {
  func makeSession(_ skills: [AnySkill]) throws -> (AgentSession, TemporaryDirectory) {
    let folder = try TemporaryDirectory()
    let engine = try TestGrammars.engine(in: folder.url)
    let agent = Agent(engine: engine, registry: try SkillRegistry(skills))
    return (AgentSession(handler: agent), folder)
  }

  @Test func runsToFinishedWithPerSkillPhasesThenResets() async throws {
    let (session, folder) = try makeSession([AnySkill(FakeTimerSkill())])
    defer { folder.remove() }
    #expect(await session.submit("3分钟后提醒我关火"))
    #expect(
      session.state == .finished(SessionResult(lines: ["timer '关火' set"], hasPartialFailure: false))
    )
    #expect(session.phases == ["Start timer": .finished("timer '关火' set")])
    #expect(!session.canSubmit)
    #expect(!(await session.submit("取消计时")))
    session.reset()
    #expect(session.state == .idle)
  }

  @Test func failsWhenEveryCommandFailsAndAcceptsANewRequestAfterwards() async throws {
    let (session, folder) = try makeSession([AnySkill(FakeTimerSkill())])
    defer { folder.remove() }
    await session.submit("看看天气")
    #expect(session.state == .failed("error: the skill for 'weather.query' is not available yet"))
    #expect(await session.submit("3分钟后提醒我关火"))
    guard case .finished = session.state else {
      Issue.record("expected finished, got \(session.state)")
      return
    }
  }

  @Test func partialFailureFinishesWithBothLines() async throws {
    let (session, folder) = try makeSession([AnySkill(FakeTimerSkill())])
    defer { folder.remove() }
    await session.submit("看看天气顺便10分钟后提醒我关火")
    #expect(
      session.state
        == .finished(
          SessionResult(
            lines: ["error: the skill for 'weather.query' is not available yet", "timer '关火' set"],
            hasPartialFailure: true)))
  }

  @Test func refusesASecondRequestWhileOneIsRunning() async throws {
    let gate = Gate()
    let (session, folder) = try makeSession([AnySkill(GatedSkill(gate: gate))])
    defer { folder.remove() }
    let first = Task { await session.submit("3分钟后提醒我关火") }
    for _ in 0..<5_000 where session.state != .executing(skill: "Start timer") {
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(session.state == .executing(skill: "Start timer"))
    #expect(session.phases == ["Start timer": .running])
    #expect(!(await session.submit("取消计时")))
    await gate.open()
    #expect(await first.value)
    #expect(session.state == .finished(SessionResult(lines: ["started"], hasPartialFailure: false)))
  }
}
