import Foundation
import IntentEngine
import TestSupport
import Testing

struct JSONByteWriterTests {
  /// Every tenth fixture line of each language, with its own clock where it has one.
  static func sampleTexts() throws -> [String] {
    var texts: [String] = []
    for language in ["zh", "en"] {
      let folder = FixturePaths.fixtures.appendingPathComponent(language)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      where name.hasSuffix(".jsonl") {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        for (index, line) in text.split(separator: "\n").enumerated() where index % 10 == 0 {
          let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
          if let utterance = object?["text"] as? String { texts.append(utterance) }
        }
      }
    }
    return texts
  }

  @Test func resultBytesMatchTheJSONValueRenderingOnFixtureLines() throws {
    let engine = try Engine.load()
    let context = ParseContext(
      now: Date(timeIntervalSince1970: 1_764_464_400),
      timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .current)
    let texts =
      try Self.sampleTexts() + [
        "say \"hi\"\\ back\t\u{1}\u{2028}", "提醒我\n买牛奶", "", "🙂 timer 5 min",
        "看看天气顺便提醒我带伞",
      ]
    #expect(texts.count > 500)
    for text in texts {
      let result = engine.parse(text, context: context)
      for explain in [false, true] {
        var writer = JSONByteWriter()
        result.writeJSON(to: &writer, includeExplanation: explain)
        #expect(
          String(decoding: writer.bytes, as: UTF8.self)
            == result.json(includeExplanation: explain).jsonText, "\(text)")
      }
    }
  }

  @Test func numbersAndEscapesMatchJSONValue() {
    let values: [JSONValue] = [
      .number(0), .number(-0.0), .number(180), .number(-120), .number(0.9993), .number(1e20),
      .number(-1.5e-7), .number(.infinity), .number(Double(Int64.max)), .bool(true), .null,
      .string("a\"b\\c\n\r\t\u{0}\u{1F}é中\u{2028}\u{2029}\u{2027}"),
      .object([("k", .array([.number(1), .string("x")])), ("e", .object([]))]),
    ]
    for value in values {
      var writer = JSONByteWriter()
      writer.value(value)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == value.jsonText, "\(value.jsonText)")
    }
  }

  @Test func fourDecimalNumbersAreWrittenAsJSONValueWritesThem() {
    var generator = SeededGenerator(seed: 4)
    let grid = stride(from: -30_000, through: 30_000, by: 1).map { Double($0) / 10_000 }
    let large = (0..<2_000).map { _ in
      Double(Int.random(in: -999_999_999...999_999_999, using: &generator)) / 10_000
    }
    let offGrid = (0..<2_000).map { _ in Double.random(in: -2...2, using: &generator) }
    let edges: [Double] = [
      0.0001, -0.0001, 0.00005, 1e-5, 99_999.9999, 999_999_999.9999, 1e9 + 0.5,
    ]
    for value in grid + large + offGrid + edges {
      var writer = JSONByteWriter()
      writer.number(value)
      #expect(
        String(decoding: writer.bytes, as: UTF8.self) == JSONValue.number(value).jsonText,
        "\(value)")
    }
  }
}
