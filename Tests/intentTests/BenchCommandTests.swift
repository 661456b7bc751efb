import Foundation
import IntentEngine
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import intent

struct BenchCommandTests {
  @Test func jsonReportHasTheDocumentedKeysAndFigures() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run(["bench", "--json", "--repeat", "2"])
    #expect(output.code == 0, "\(output.stderr)")
    let json = try JSONValue(parsing: Data(output.stdout.utf8))
    for key in [
      "split", "lines", "accuracy", "precision", "coverage", "false_accept", "slot_exact", "multi",
      "calibration", "calibration_error", "risk_coverage", "intents", "confusion", "p50", "p95",
      "p99", "throughput", "latency", "thresholds",
    ] {
      #expect(json[key] != nil, "missing key '\(key)'")
    }
    #expect(json["split"]?.stringValue == "all")
    #expect(json["lines"]?.numberValue == 8)
    // Local: 5 right, 1 false accept ("will it rain tomorrow"); in scope 5 of 6 local.
    #expect(json["precision"]?.numberValue == 0.8333)
    #expect(json["coverage"]?.numberValue == 0.8333)
    #expect(json["false_accept"]?.numberValue == 0.5)
    #expect((json["p50"]?.numberValue ?? 0) > 0)
    #expect(json["latency"]?["samples"]?.numberValue == 16)
    #expect(
      json["calibration"]?["bins"].map { if case .array(let a) = $0 { a.count } else { 0 } } == 10)
  }

  @Test func splitSelectsLines() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run(["bench", "--json", "--repeat", "0", "--split", "dev"])
    #expect(output.code == 0)
    let json = try JSONValue(parsing: Data(output.stdout.utf8))
    #expect(json["lines"]?.numberValue == 4)
    #expect(json["p50"] == .null)
  }

  @Test func brokenThresholdsFailTheRunAndNameTheFigures() async throws {
    let scratch = try BenchScratch()
    try scratch.write(
      #"{"split": "all", "precision": 0.99, "coverage": 0.5, "false_accept": 0.01}"#,
      to: "Fixtures/thresholds.json")
    let output = await scratch.run(["bench", "--repeat", "0"])
    #expect(output.code == 1)
    #expect(
      output.stderr.contains("error: 2 figure(s) broke Fixtures/thresholds.json (split all):"))
    #expect(output.stderr.contains("precision 83.3% is below the minimum 99.0%"))
    #expect(output.stderr.contains("false_accept 50.0% is above the maximum 1.0%"))
    #expect(!output.stderr.contains("coverage 83.3%"))
  }

  @Test func metThresholdsPass() async throws {
    let scratch = try BenchScratch()
    try scratch.write(#"{"split": "all", "precision": 0.8, "coverage": 0.8}"#, to: "limits.json")
    let output = await scratch.run(["bench", "--repeat", "0", "--thresholds", "limits.json"])
    #expect(output.code == 0, "\(output.stderr)")
    #expect(output.stderr.contains("thresholds met (limits.json, split all)"))
  }

  @Test func thresholdsOfAnotherSplitAreCheckedOnThatSplit() async throws {
    let scratch = try BenchScratch()
    // The only false accept is a test line, so dev passes and test fails.
    try scratch.write(#"{"split": "dev", "false_accept": 0}"#, to: "dev.json")
    try scratch.write(#"{"split": "test", "false_accept": 0}"#, to: "test.json")
    #expect(await scratch.run(["bench", "--repeat", "0", "--thresholds", "dev.json"]).code == 0)
    let failing = await scratch.run([
      "bench", "--repeat", "0", "--split", "dev", "--thresholds", "test.json",
    ])
    #expect(failing.code == 1)
  }

  @Test func thresholdsFileWithAnUnknownFigureIsAnError() async throws {
    let scratch = try BenchScratch()
    try scratch.write(#"{"precison": 0.9}"#, to: "Fixtures/thresholds.json")
    let output = await scratch.run(["bench", "--repeat", "0"])
    #expect(output.code == 1)
    #expect(
      output.stderr.hasPrefix(
        "error: Fixtures/thresholds.json: unknown figure 'precison'; did you mean 'precision'?"))
  }

  @Test func junitHasOneTestCasePerLineAndParses() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run(["bench", "--repeat", "0", "--junit", "out/junit.xml"])
    #expect(output.code == 1, "the 'out' folder does not exist, so writing fails")
    try FileManager.default.createDirectory(
      at: scratch.root.appendingPathComponent("out"), withIntermediateDirectories: true)
    #expect(await scratch.run(["bench", "--repeat", "0", "--junit", "out/junit.xml"]).code == 0)
    let xml = try #require(scratch.read("out/junit.xml"))
    let counter = XMLCounter()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = counter
    #expect(parser.parse(), "JUnit output is not well-formed XML")
    #expect(counter.elements["testsuites"] == 1)
    #expect(counter.elements["testcase"] == 8)
    // Line 3 goes to the fallback, line 6 is a false accept.
    #expect(counter.elements["failure"] == 2)
    #expect(counter.failureTypes == ["not_local", "false_accept"])
  }

  @Test func svgChartsAreWrittenAndWellFormed() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run(["bench", "--repeat", "0", "--svg", "charts"])
    #expect(output.code == 0, "\(output.stderr)")
    for name in ["reliability.svg", "risk-coverage.svg", "confusion.svg"] {
      let svg = try #require(scratch.read("charts/\(name)"), "\(name) not written")
      let counter = XMLCounter()
      let parser = XMLParser(data: Data(svg.utf8))
      parser.delegate = counter
      #expect(parser.parse(), "\(name) is not well-formed XML")
      #expect(counter.root == "svg")
      #expect((counter.elements["text"] ?? 0) >= 3, "\(name) has no labels")
    }
    let reliability = try #require(scratch.read("charts/reliability.svg"))
    #expect(reliability.contains(">confidence</text>"))
    #expect(reliability.contains(">accuracy (share right)</text>"))
    let confusion = try #require(scratch.read("charts/confusion.svg"))
    #expect(confusion.contains(">timer.cancel</text>"))
    #expect(confusion.contains(">none</text>"))
  }

  @Test func failuresListMisroutedLinesWithTheirExplanation() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run(["bench", "--repeat", "0", "--failures"])
    #expect(output.stdout.contains("2 line(s) not handled as expected"))
    #expect(output.stdout.contains("Fixtures/en/lines.jsonl:6  'will it rain tomorrow'"))
    #expect(output.stdout.contains("keyword 'rain'"))
    let falseAccept = try #require(output.stdout.range(of: "== false_accept =="))
    let notLocal = try #require(output.stdout.range(of: "== not_local =="))
    #expect(falseAccept.lowerBound < notLocal.lowerBound, "worst problems come first")
  }

  @Test func markdownReportIsATable() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run(["bench", "--repeat", "1", "--markdown"])
    #expect(output.stdout.hasPrefix("| figure | value | |\n|---|---:|---|\n"))
    #expect(output.stdout.contains("| local precision | 83.3% |"))
    #expect(output.stdout.contains("| `weather.query` |"))
  }

  @Test func unreadableFixtureLinesAreReportedByPosition() async throws {
    let scratch = try BenchScratch()
    try scratch.write(
      """
      {"text": "weather", "intent": "weather.query", "split": "dev"}
      {"text": "weather", "split": "dev"}
      {"text": "weather", "intent": "weather.query", "split": "train"}
      not json {

      """, to: "Fixtures/en/bad.jsonl")
    let output = await scratch.run(["bench", "--repeat", "0"])
    #expect(output.code == 1)
    #expect(
      output.stderr.contains(
        "error: Fixtures/en/bad.jsonl:2: object has no 'intent' field; use null for out-of-scope lines"
      ))
    #expect(
      output.stderr.contains("error: Fixtures/en/bad.jsonl:3: 'split' must be \"dev\" or \"test\""))
    #expect(output.stderr.contains("error: Fixtures/en/bad.jsonl:4: line is not a JSON object"))
    #expect(output.stdout.isEmpty)
  }

  @Test func usageMistakesExitTwo() async throws {
    let scratch = try BenchScratch()
    let bogus = await scratch.run(["bench", "--split", "train"])
    #expect(bogus.code == 2)
    #expect(bogus.stderr.hasPrefix("error: '--split' must be dev, test or all, not 'train'"))
    #expect(await scratch.run(["bench", "--json", "--markdown"]).code == 2)
    #expect(await scratch.run(["bench", "--jsn"]).code == 2)
    #expect(await scratch.run(["bench", "nowhere"]).code == 1)
  }
}

/// Counts elements while parsing XML, remembering the root and failure types.
final class XMLCounter: NSObject, XMLParserDelegate {
  // Only touched from the parsing thread, synchronously inside `parse()`.
  nonisolated(unsafe) var elements: [String: Int] = [:]
  nonisolated(unsafe) var root: String?
  nonisolated(unsafe) var failureTypes: [String] = []

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    if root == nil { root = elementName }
    elements[elementName, default: 0] += 1
    if elementName == "failure", let type = attributes["type"] { failureTypes.append(type) }
  }
}

struct BenchSlotScoringTests {
  /// Slots are scored on the best guess, as accuracy is: a line the engine is unsure of still
  /// shows whether its details were read right.
  @Test func slotsOfAnUnsureLineAreScoredOnTheBestGuess() throws {
    let engine = try Engine.load()
    let text = "shorts or jeans tomorrow"
    let context = ParseContext(
      now: Date(timeIntervalSince1970: 1_796_000_400),  // 2026-11-30T09:00:00+08:00
      timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)
    var fixture = BenchFixture(file: "lines.jsonl", line: 1, text: text)
    fixture.intent = "weather.query"
    fixture.slots = .object([("date", .string("2026-12-01"))])
    let result = engine.parse(text, context: context)
    let guess = engine.bestGuess(text, context: context)
    #expect(result.intent == nil && result.slots.isEmpty)
    #expect(guess.intent == "weather.query" && guess.route == .fallback)
    let answered = BenchOutcome(fixture: fixture, result: result, engine: engine)
    let guessed = BenchOutcome(fixture: fixture, result: result, guess: guess, engine: engine)
    #expect(answered.slotMatch == false)
    #expect(guessed.slotMatch == true)
    #expect(guessed.isLocal == false)
  }
}
