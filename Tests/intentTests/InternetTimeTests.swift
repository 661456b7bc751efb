import Foundation
import IntentEngine
import TestSupport
import Testing

@testable import intent

@Suite("Reading times on JSONL lines")
struct InternetTimeTests {
  /// Times in the common form, with every kind of offset, seeded so a failure can be replayed.
  static func sampleTimes(count: Int) -> [String] {
    var generator = SeededGenerator(seed: 20_261_202)
    func pick(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return (0..<count).map { index in
      let date =
        "\(pick(1900...2100))-\(two(pick(1...12)))-\(two(pick(1...28 + index % 4)))"
        + "T\(two(pick(0...23))):\(two(pick(0...59))):\(two(pick(0...59)))"
      switch index % 4 {
      case 0: return date + "Z"
      case 1: return date
      case 2: return date + "+\(two(pick(0...14))):\(two([0, 30, 45][pick(0...2)]))"
      default: return date + "-\(two(pick(0...12))):\(two([0, 30][pick(0...1)]))"
      }
    }
  }

  @Test("every time in the common form reads as the formatter reads it, most of them directly")
  func directReadingMatchesFormatter() {
    var direct = 0
    for text in Self.sampleTimes(count: 4_000) {
      let formatted = EngineOptions.formatterDate(fromISO8601: text)
      #expect(formatted != nil, "\(text)")
      #expect(EngineOptions.date(fromISO8601: text) == formatted, "\(text)")
      if let seconds = InternetTime.secondsSinceEpoch(text.utf8) {
        #expect(Date(timeIntervalSince1970: TimeInterval(seconds)) == formatted, "\(text)")
        direct += 1
      }
    }
    // Only days past the end of a month (which the formatter rolls over) are left to it.
    #expect(direct > 3_800)
  }

  @Test("out-of-range fields and other forms are left to the formatter")
  func otherFormsFallBack() {
    for text in [
      "2026-02-30T09:00:00Z", "2026-13-01T09:00:00Z", "2026-11-30T24:00:00Z",
      "2026-11-30T09:60:00Z", "2026-11-30T09:00:60Z", "2026-11-30 09:00:00Z",
      "2026-11-30T09:00:00.250Z", "2026-11-30T09:00:00+0800", "2026-11-30", "",
      "２０２６-11-30T09:00:00Z",
      "2026-11-30T09:00:00+08:60",
    ] {
      #expect(InternetTime.secondsSinceEpoch(text.utf8) == nil, "\(text)")
    }
    // Fractional seconds still read, through the formatter.
    #expect(
      EngineOptions.date(fromISO8601: "2026-11-30T01:00:00.500Z")
        == Date(timeIntervalSince1970: 1_796_000_400.5))
    #expect(
      EngineOptions.date(fromISO8601: "2024-02-29T00:00:00Z")
        == Date(timeIntervalSince1970: 1_709_164_800))
  }
}
