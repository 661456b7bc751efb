import Foundation
import IntentEngine
import TestSupport
import Testing

@testable import intent

// Serialized: each test loads the built-in grammars several times, synchronously on the shared
// cooperative pool; run side by side they starve the loopback-server tests of threads.
/// `intent bench` scores follow-ups the way `intent run --session` plays them.
@Suite(.serialized)
struct BenchFollowUpTests {
  /// Two follow-ups that complete, one whose answer is a new command, one that asks for another
  /// slot than the line expects, and a line without a follow-up.
  static let lines = """
    {"text": "set a timer", "intent": "timer.start", "slots": {}, "missing_slots": ["duration"], "follow_up": {"text": "ten minutes", "slots": {"duration": 600}}, "split": "dev"}
    {"text": "帮我定个闹钟", "intent": "reminder.create", "slots": {}, "missing_slots": ["datetime"], "follow_up": {"text": "明天早上七点", "slots": {"datetime": "2026-12-01T07:00:00+08:00"}}, "split": "dev"}
    {"text": "set a timer", "intent": "timer.start", "slots": {}, "follow_up": {"text": "what's the weather in paris", "slots": {"duration": 600}}, "split": "dev"}
    {"text": "set a timer", "intent": "timer.start", "slots": {}, "missing_slots": ["text"], "follow_up": {"text": "ten minutes", "slots": {"duration": 600}}, "split": "dev"}
    {"text": "set a timer for 10 minutes", "intent": "timer.start", "slots": {"duration": 600}, "split": "dev"}

    """

  func bench(_ arguments: [String], fixtures: String = Self.lines) async throws -> CommandOutput {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try Data(fixtures.utf8).write(to: folder.url.appendingPathComponent("followups.jsonl"))
    let stdout = OutputBuffer()
    let stderr = OutputBuffer()
    let io = CommandIO(
      readInput: { Data() }, write: stdout.append, writeError: stderr.append,
      environment: ["TZ": "Asia/Shanghai"], currentDirectory: folder.url)
    let code = await IntentCommand.run(
      ["bench", "followups.jsonl", "--no-thresholds", "--repeat", "0"] + arguments, io: io)
    return CommandOutput(stdout: stdout.text, stderr: stderr.text, code: code)
  }

  @Test func jsonCountsTheFollowUpsThatComplete() async throws {
    let output = try await bench(["--json"])
    #expect(output.code == 0, "\(output.stderr)")
    let json = try JSONValue(parsing: Data(output.stdout.utf8))
    #expect(json["follow_up_lines"]?.numberValue == 4)
    #expect(json["follow_up_asked"]?.numberValue == 4)
    #expect(json["follow_up"]?.numberValue == 0.5)
  }

  @Test func textReportHasAFollowUpRowAndFailuresSayWhy() async throws {
    let output = try await bench(["--failures"])
    #expect(output.code == 0, "\(output.stderr)")
    #expect(output.stdout.contains("follow-ups completed         50.0%"), "\(output.stdout)")
    #expect(output.stdout.contains("== follow_up =="))
    #expect(
      output.stdout.contains("the answer 'what's the weather in paris' is not read as an answer"))
    #expect(output.stdout.contains("the line misses 'duration', expected 'text'"))
  }

  @Test func malformedFollowUpIsAFixtureError() async throws {
    let output = try await bench(
      [], fixtures: #"{"text": "set a timer", "intent": "timer.start", "follow_up": "ten minutes"}"#
    )
    #expect(output.code == 1)
    #expect(
      output.stderr.contains(
        "followups.jsonl:1: 'follow_up' must be an object with the answer's 'text'"),
      "\(output.stderr)")
  }
}
