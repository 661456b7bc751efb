import Foundation
import IntentEngine
import TestSupport
import Testing

@testable import intent

/// `intent parse --jsonl` as scripts use it in bulk and as a trickling pipe.
struct JSONLPipeTests {
  static let clock = ParseCommandTests.fixedClock

  static func objects(_ text: String) throws -> [JSONValue] {
    try text.split(separator: "\n").map { try JSONValue(parsing: Data($0.utf8)) }
  }

  @Test func bulkLinesCarryTheContractFieldsAndTheExplanationOnlyWhenAsked() async throws {
    let input = Data("三分钟后提醒我\n看看天气顺便提醒我带伞\n".utf8)
    let lean = await ParseCommandTests.run(["parse", "--jsonl"] + Self.clock, input: input)
    #expect(lean.code == 0)
    let leanObjects = try Self.objects(lean.output.text)
    #expect(leanObjects.count == 2)
    for object in leanObjects {
      #expect(object["intent"] != nil && object["confidence"] != nil && object["slots"] != nil)
      #expect(object["route"] != nil && object["alternatives"] != nil)
      #expect(object["explanation"] == nil)
      #expect(object["normalized"] == nil)
    }
    guard case .array(let clauses)? = leanObjects[1]["clauses"] else {
      Issue.record("two commands give clauses")
      return
    }
    #expect(clauses.count == 2)

    let explained = await ParseCommandTests.run(
      ["parse", "--jsonl", "--explain"] + Self.clock, input: input)
    let explainedObjects = try Self.objects(explained.output.text)
    for object in explainedObjects {
      guard case .array(let evidence)? = object["explanation"] else {
        Issue.record("--explain adds the explanation")
        continue
      }
      #expect(!evidence.isEmpty)
    }

    let single = await ParseCommandTests.run(["parse", "--json"] + Self.clock + ["三分钟后提醒我"])
    #expect(try JSONValue(parsing: Data(single.output.text.utf8))["explanation"] != nil)
  }

  @Test func severalJobsWriteTheSameLinesInInputOrder() async throws {
    var lines: [String] = []
    for index in 0..<600 {
      lines.append(
        index % 3 == 0
          ? "\(index % 50 + 1)分钟后提醒我" : #"{"text": "set a timer for \#(index) minutes"}"#)
    }
    let input = Data((lines.joined(separator: "\n") + "\n").utf8)
    let one = await ParseCommandTests.run(
      ["parse", "--jsonl", "--jobs", "1"] + Self.clock, input: input)
    let four = await ParseCommandTests.run(
      ["parse", "--jsonl", "--jobs", "4"] + Self.clock, input: input)
    #expect(one.code == 0)
    #expect(four.output.text == one.output.text)
    let texts = try Self.objects(four.output.text).map { $0["text"]?.stringValue ?? "" }
    #expect(texts.count == 600)
    #expect(texts[1] == "set a timer for 1 minutes")
    #expect(texts[599] == "set a timer for 599 minutes")
    #expect(await ParseCommandTests.run(["parse", "--jsonl", "--jobs", "0"]).code == 2)
  }

  @Test func linesSplitAcrossBlocksAreReadWhole() {
    var splitter = LineSplitter()
    var texts: [String] = []
    func collect(_ lines: [JSONLines.Line]) {
      for line in lines {
        if case .success(let request) = line.request { texts.append(request.text) }
      }
    }
    collect(splitter.lines(in: Array("三分".utf8)))
    #expect(texts.isEmpty)
    collect(splitter.lines(in: Array("钟后\r\n{\"text\": \"b\"".utf8)))
    collect(splitter.lines(in: Array("}\n\nlast".utf8)))
    if let last = splitter.finish() { collect([last]) }
    #expect(texts == ["三分钟后", "b", "", "last"])
    #expect(splitter.finish()?.number == nil)
  }

  /// What a request reads as, for comparing the scanner with the full parser.
  static func summary(_ result: Result<JSONLines.Request, JSONLines.LineError>) -> String {
    switch result {
    case .success(let request):
      "text=\(request.text) now=\(request.now ?? "-") tz=\(request.timeZone ?? "-")"
    case .failure(let error): "error=\(error.message)"
    }
  }

  @Test func scannedObjectLinesReadAsTheFullParserReadsThem() throws {
    var lines: [String] = [
      #"{"text": "a\"b", "now": "x"}"#, #"{"text": 5}"#, #"{"now": "2026-01-01"}"#,
      #"{"text": "a", "text": "b"}"#, #"{"text": "a",}"#, #"{"text": "a"} x"#, #"  {"text":"t"}"#,
      #"{"text": "a", "slots": {"x": [1, -2.5e3, true, false, null, {"y": "\u00e9"}]}}"#,
      #"{"text": "a", "n": 01}"#, #"{"text": "a", "n": 1.}"#, #"{"text": "a", "s": "\q"}"#,
      #"{"text": "a", "tz": 8, "now": null}"#, #"{"text": "a", "tz": "Mars/Base"}"#, "{", "{}",
      #"{"text": "tab\#there"}"#, #"{"text": "\u4e09分钟"}"#,
      #"{"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]], "text": "deep"}"#,
    ]
    for language in ["zh", "en"] {
      let folder = FixturePaths.fixtures.appendingPathComponent(language)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      where name.hasSuffix(".jsonl") {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        lines += text.split(separator: "\n").map(String.init)
      }
    }
    #expect(lines.count > 1_000)
    for line in lines {
      let bytes = Array(line.utf8)[...]
      #expect(
        Self.summary(LineSplitter.request(from: bytes))
          == Self.summary(JSONLines.request(from: bytes)), "\(line)")
    }
  }

  @Test func utf8IsCheckedAsTheStandardLibraryChecksIt() {
    var generator = SeededGenerator(seed: 8)
    // Lead bytes of every kind, continuation bytes and ASCII, in short runs.
    let alphabet: [UInt8] = [
      0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
      0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    var samples: [[UInt8]] = [
      [], Array("三分钟 🙂 é".utf8), [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    ]
    for _ in 0..<20_000 {
      let count = Int.random(in: 1...6, using: &generator)
      samples.append((0..<count).map { _ in alphabet.randomElement(using: &generator) ?? 0 })
    }
    for sample in samples {
      #expect(
        JSONLineScanner.isValidUTF8(sample[...])
          == (String(validating: sample, as: UTF8.self) != nil),
        "\(sample)")
    }
  }

  /// A pipe that sends one line and waits: the answer must come before the input ends.
  @Test func trickledLineIsAnsweredBeforeTheInputEnds() async throws {
    let binary = try #require(BuiltProducts.executable(named: "intent"), "build 'intent' first")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["parse", "--jsonl"] + Self.clock
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data("三分钟后提醒我\n".utf8))
    // Read the first answer while standard input is still open; give up after 20 s, not hang.
    let answer = await withTaskGroup(of: String?.self) { group in
      group.addTask {
        var bytes: [UInt8] = []
        while !bytes.contains(0x0A) {
          let chunk = output.fileHandleForReading.availableData
          if chunk.isEmpty { break }
          bytes += chunk
        }
        return String(decoding: bytes, as: UTF8.self)
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(20))
        // Ending the process ends its output, so the reader above returns too.
        if !Task.isCancelled { process.terminate() }
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    let line = try #require(answer, "no answer while the input stayed open")
    #expect(line.hasPrefix(#"{"text":"三分钟后提醒我","intent":"timer.start""#))
    #expect(process.terminationStatus == 0)
  }
}
