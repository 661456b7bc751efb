import Foundation
import IntentEngine
import SkillRouter
import Skills
import Synchronization
import TestSupport
import Testing

/// A handler that previews with a real agent and records what it was asked.
final class RecordingHandler: UtteranceHandling {
  let agent: Agent<ContinuousClock>
  let previewed = Mutex<[String]>([])
  let handled = Mutex<[String]>([])

  init(_ agent: Agent<ContinuousClock>) { self.agent = agent }

  func handle(
    _ text: String, context: ParseContext, events: AsyncStream<AgentEvent>.Continuation?
  ) async -> AgentOutcome {
    handled.withLock { $0.append(text) }
    return await agent.handle(text, context: context, events: events)
  }

  func preview(_ text: String, context: ParseContext) -> TextPreview? {
    previewed.withLock { $0.append(text) }
    return agent.preview(text, context: context)
  }
}

let previewContext = ParseContext(
  now: Date(timeIntervalSince1970: 1_796_000_000),
  timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)

@MainActor
struct LivePreviewTests {
  func makeSession(clock: TestClock) throws -> (AgentSession, RecordingHandler, TemporaryDirectory)
  {
    let folder = try TemporaryDirectory()
    let engine = try TestGrammars.engine(in: folder.url)
    let handler = RecordingHandler(
      Agent(engine: engine, registry: try SkillRegistry([AnySkill(FakeTimerSkill())])))
    let session = AgentSession(handler: handler, context: { previewContext }, clock: clock)
    return (session, handler, folder)
  }

  /// Lets the main actor run woken tasks until `done` holds (a bounded number of turns).
  func settle(until done: () -> Bool) async {
    for _ in 0..<10_000 where !done() { await Task.yield() }
  }

  @Test func rapidKeystrokesDeliverOnePreviewOfTheLatestText() async throws {
    let clock = TestClock()
    let (session, handler, folder) = try makeSession(clock: clock)
    defer { folder.remove() }
    #expect(session.previewDelay == .milliseconds(150))
    for text in ["3", "3分钟", "3分钟后提醒", "3分钟后提醒我关火"] {
      session.updatePreview(text)
      clock.advance(by: .milliseconds(100))
    }
    #expect(await clock.waitForSleepers(1))
    #expect(session.preview == nil, "nothing before the text settles")
    clock.advance(by: .milliseconds(150))
    await settle { session.preview != nil }
    let preview = try #require(session.preview)
    #expect(preview.text == "3分钟后提醒我关火")
    #expect(preview.intent == "timer.start")
    #expect(preview.isConfident)
    #expect(preview.slots["duration"] == .number(180))
    #expect(handler.previewed.withLock { $0 } == ["3分钟后提醒我关火"])
    #expect(handler.handled.withLock { $0 }.isEmpty, "a preview runs nothing")
  }

  @Test func aCancelledPreviewNeverArrives() async throws {
    let clock = TestClock()
    let (session, handler, folder) = try makeSession(clock: clock)
    defer { folder.remove() }
    session.updatePreview("10分钟后提醒我关火")
    #expect(await clock.waitForSleepers(1))
    session.cancelPreview()
    await settle { clock.sleeperCount == 0 }
    #expect(clock.sleeperCount == 0)
    clock.advance(by: .seconds(5))
    await settle { false }
    #expect(session.preview == nil)
    #expect(handler.previewed.withLock { $0 }.isEmpty)
  }

  @Test func aPreviewShowsWhatIsMissingAndEmptyTextClearsIt() async throws {
    let clock = TestClock()
    let (session, _, folder) = try makeSession(clock: clock)
    defer { folder.remove() }
    session.updatePreview("帮我倒计时")
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .milliseconds(150))
    await settle { session.preview != nil }
    let preview = try #require(session.preview)
    #expect(preview.intent == "timer.start")
    #expect(preview.missingSlots == ["duration"])
    session.updatePreview("  ")
    #expect(session.preview == nil)
  }
}
