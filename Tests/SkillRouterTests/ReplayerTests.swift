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

  @Test(arguments: ["1e300", "9223372036854775808", "-1e300", "1.5", "2", "\"1\"", "null"])
  func unsupportedVersionIsALineError(_ version: String) throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let replayer = Replayer(engine: try TestGrammars.engine(in: folder.url))
    let line = #"{"version": \#(version), "text": "明天会下雨吗"}"#
    let results = replayer.replay(contentsOf: Data((line + "\n").utf8))
    #expect(results.count == 1)
    guard case .failure(let error) = results.first else {
      Issue.record("version \(version) was replayed")
      return
    }
    #expect(error.message.hasPrefix("trace version "))
    #expect(error.message.hasSuffix(" is not supported; expected 1"))
  }

  @Test func versionOneWrittenWithAFractionIsReplayed() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let replayer = Replayer(engine: try TestGrammars.engine(in: folder.url))
    let results = replayer.replay(contentsOf: Data(#"{"version": 1.0, "text": "明天会下雨吗"}"#.utf8))
    #expect(try results.first?.get().text == "明天会下雨吗")
  }

  @Test func oversizedLineIsRefusedBeforeItIsParsed() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let replayer = Replayer(engine: try TestGrammars.engine(in: folder.url))
    let text = String(repeating: "a", count: Replayer.maximumLineBytes)
    let line = #"{"version": 1, "text": "\#(text)"}"#
    let results = replayer.replay(contentsOf: Data((line + "\n" + #"{"text": "明天会下雨吗"}"#).utf8))
    #expect(results.count == 2)
    // Compared as a value, not thrown: capturing a backtrace for a thrown error here has crashed
    // the test runner's unwinder on Linux.
    guard case .failure(let error) = results.first else {
      Issue.record("the oversized line was replayed")
      return
    }
    #expect(
      error
        == Replayer.LineError(
          line: 1,
          message:
            "line is \(line.utf8.count) bytes; a trace line holds at most \(Replayer.maximumLineBytes)"
        ))
    #expect(try results[1].get().text == "明天会下雨吗")
  }

  @Test func lineWithTooManyCommandsIsRefused() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let replayer = Replayer(engine: try TestGrammars.engine(in: folder.url))
    let clauses = Array(repeating: #"{"intent": "timer.start"}"#, count: 100_000)
    let line = #"{"version": 1, "text": "明天会下雨吗", "clauses": [\#(clauses.joined(separator: ","))]}"#
    let results = replayer.replay(contentsOf: Data(line.utf8))
    #expect(
      throws: Replayer.LineError(
        line: 1, message: "line records 100000 commands; a trace line holds at most 64")
    ) { try results[0].get() }
  }
}
