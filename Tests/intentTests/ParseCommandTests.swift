import Foundation
import IntentEngine
import Testing
import TestSupport

@testable import intent

/// `intent parse` and `intent check` run in process, as scripts call them.
struct ParseCommandTests {
  struct Run {
    var code: Int32
    var output: OutputBuffer
    var errors: OutputBuffer
  }

  static let fixedClock = ["--now", "2026-11-30T09:00:00+08:00", "--time-zone", "Asia/Shanghai"]

  static func run(_ arguments: [String], input: Data = Data(), environment: [String: String] = [:])
    async -> Run
  {
    let output = OutputBuffer()
    let errors = OutputBuffer()
    let io = CommandIO(
      readInput: { input }, write: { output.append($0) }, writeError: { errors.append($0) },
      environment: environment, currentDirectory: FixturePaths.root)
    let code = await IntentCommand.run(arguments, io: io)
    return Run(code: code, output: output, errors: errors)
  }

  static func json(_ text: String) throws -> JSONValue {
    try JSONValue(parsing: Data(text.utf8))
  }

  @Test func jsonOutputHasTheContractFields() async throws {
    let run = await Self.run(
      ["parse", "--json"] + Self.fixedClock + ["set a timer for 10 minutes"])
    #expect(run.code == 0)
    let object = try Self.json(run.output.text)
    for key in ["text", "intent", "confidence", "route", "slots", "alternatives", "explanation"] {
      #expect(object[key] != nil, "missing \(key)")
    }
    #expect(object["intent"]?.stringValue == "timer.start")
    #expect(object["slots"]?["duration"]?.numberValue == 600)
    #expect(object["route"]?.stringValue == "local")
  }

  @Test func jsonlAnswersEveryLineInOrderAndReportsBadLines() async throws {
    var input = Data("set a timer for 10 minutes\n".utf8)
    input += Data(#"{"text": "what's the weather in Paris tomorrow"}"#.utf8) + Data("\n".utf8)
    input += Data(#"{"text": 42}"#.utf8) + Data("\n".utf8)
    input += Data("{not json\n".utf8)
    input += Data([0xFF, 0xFE, 0x41, 0x0A])
    input += Data("\n".utf8)
    let run = await Self.run(["parse", "--jsonl"] + Self.fixedClock, input: input)
    #expect(run.code == 0)
    let objects = try run.output.lines.map(Self.json)
    #expect(objects.count == 6)
    #expect(objects[0]["intent"]?.stringValue == "timer.start")
    #expect(objects[1]["intent"]?.stringValue == "weather.query")
    #expect(objects[2]["error"]?.stringValue == "'text' is not a string")
    #expect(objects[3]["error"]?.stringValue == "line is not valid JSON")
    #expect(objects[4]["error"]?.stringValue == "line is not valid UTF-8")
    #expect(objects[5]["intent"] == .null)
  }

  @Test func jsonlLinesAfterOnceCrashingLinesAreAnswered() async throws {
    let lines = ["ok, remind me at 5pm to b", "好，5日提醒我买", "set a timer for 10 minutes"]
    let input = Data(lines.map { $0 + "\n" }.joined().utf8)
    let run = await Self.run(["parse", "--jsonl"] + Self.fixedClock, input: input)
    let objects = try run.output.lines.map(Self.json)
    #expect(objects.map { $0["text"]?.stringValue } == lines)
    #expect(objects.last?["intent"]?.stringValue == "timer.start")
  }

  @Test func jsonlLineMayCarryItsOwnClockAndZone() async throws {
    let line =
      #"{"text": "tomorrow weather", "now": "2026-11-30T23:30:00-05:00", "tz": "America/New_York"}"#
    let run = await Self.run(["parse", "--jsonl"], input: Data((line + "\n").utf8))
    let object = try Self.json(run.output.text)
    #expect(object["slots"]?["date"]?.stringValue == "2026-12-01")
  }

  @Test func plainOutputExplainsTheDecision() async {
    let run = await Self.run(["parse"] + Self.fixedClock + ["set a timer for 10 minutes"])
    #expect(run.code == 0)
    #expect(run.output.text.contains("intent        timer.start"))
    #expect(run.output.text.contains("why"))
  }

  @Test func notUnderstoodIsNotAFailure() async throws {
    let run = await Self.run(["parse", "--json", "asdfghjkl qwerty"])
    #expect(run.code == 0)
    #expect(try Self.json(run.output.text)["intent"] == .null)
  }

  @Test func misspeltOptionIsAUsageErrorWithAHint() async {
    let run = await Self.run(["parse", "--jsn", "天气"])
    #expect(run.code == 2)
    #expect(run.errors.text.hasPrefix("error: unknown option '--jsn'; did you mean '--json'?"))
  }

  @Test func unknownTimeZoneIsAUsageError() async {
    let run = await Self.run(["parse", "--time-zone", "Mars/Olympus", "天气"])
    #expect(run.code == 2)
    #expect(run.errors.text.contains("unknown time zone 'Mars/Olympus'"))
  }

  @Test func brokenUserGrammarFailsWithDiagnostics() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "grammar-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "intent lights.on\n  keywords on: 开灯\n  slot x: colour\n".write(
      to: folder.appendingPathComponent("lights.grammar"), atomically: true, encoding: .utf8)
    let run = await Self.run(["parse", "--grammars", folder.path, "开灯"])
    #expect(run.code == 1)
    #expect(run.errors.text.contains("lights.grammar:3:11: error: unknown entity type 'colour'"))
    #expect(run.output.text.isEmpty)
  }

  @Test func userGrammarLoadsNextToTheBuiltIns() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "grammar-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try """
    intent lights.on
      keywords on (weight 3): 开灯, turn on the lights
      pattern: [帮我|请] 开灯
    """.write(
      to: folder.appendingPathComponent("lights.grammar"), atomically: true, encoding: .utf8)
    let run = await Self.run(["parse", "--json", "--grammars", folder.path, "开灯"])
    #expect(try Self.json(run.output.text)["intent"]?.stringValue == "lights.on")
    let builtin = await Self.run(["parse", "--json", "--grammars", folder.path, "北京天气"])
    #expect(try Self.json(builtin.output.text)["intent"]?.stringValue == "weather.query")
  }

  @Test func checkPassesOnTheBuiltInGrammars() async {
    let run = await Self.run(["check", "--quiet"])
    #expect(run.code == 0, "\(run.output.text)")
    #expect(run.output.text.contains("0 failed"))
  }
}
