import Foundation
import IntentEngine
import SkillRouter
import Skills
import TestSupport
import Testing

struct ReplayerTests {
  let context = ParseContext(
    now: Date(timeIntervalSince1970: 1_796_000_000),
    timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)

  /// Runs utterances through an agent over the test grammars and returns the trace text.
  func recordTrace(_ utterances: [String], in folder: URL) async throws -> Data {
    let engine = try TestGrammars.engine(in: folder)
    let agent = Agent(
      engine: engine, registry: try SkillRegistry([AnySkill(FakeTimerSkill())]), mode: .local)
    let url = folder.appendingPathComponent("trace.jsonl")
    for text in utterances {
      let outcome = await agent.handle(text, context: context)
      try Trace.append(Trace.record(of: outcome, at: context.now), to: url)
    }
    return try Data(contentsOf: url)
  }

  @Test func replayWithTheSameGrammarsChangesNothing() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let trace = try await recordTrace(
      ["3分钟后提醒我关火", "看看天气顺便10分钟后提醒我关火", "明天会下雨吗"], in: folder.url)
    let replayer = Replayer(engine: try TestGrammars.engine(in: folder.url))
    let results = replayer.replay(contentsOf: trace)
    #expect(results.count == 3)
    for result in results {
      #expect(try result.get().changes == [])
    }
  }

  @Test func replayShowsWhatAGrammarChangeDecidesDifferently() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let trace = try await recordTrace(["明天会下雨吗", "3分钟后提醒我关火"], in: folder.url)
    let changed = try TestGrammars.engine(in: folder.url, extraWeatherKeywords: ["下雨"])
    let results = Replayer(engine: changed).replay(contentsOf: trace)
    let first = try results[0].get()
    #expect(first.text == "明天会下雨吗")
    #expect(first.changes == ["intent: none → weather.query", "route: unmatched → local"])
    #expect(try results[1].get().isChanged == false)
  }

  @Test func unreadableLinesAreReportedWithTheirNumber() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let replayer = Replayer(engine: try TestGrammars.engine(in: folder.url))
    let results = replayer.replay(contentsOf: Data("not json\n\n{\"mode\": \"auto\"}\n".utf8))
    #expect(results.count == 2)
    #expect(throws: Replayer.LineError(line: 1, message: "not a JSON object")) {
      try results[0].get()
    }
    #expect(
      throws: Replayer.LineError(
        line: 3, message: "no 'text' field; is this an 'intent run' trace?")
    ) { try results[1].get() }
  }
}
