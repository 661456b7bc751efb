import Foundation
import Testing
import TestSupport

@testable import IntentEngine

/// Random and adversarial input for the normaliser and every extractor: no crash, no hang.
///
/// Timings are not asserted (STYLE §7); a super-linear path would make the 200 KB cases take
/// minutes, which is what these tests are there to notice.
struct EntityFuzzTests {
  /// Pieces that exercise the extractors' corners when glued together at random.
  static let alphabet: [String] = [
    "三", "十", "百", "千", "万", "亿", "零", "两", "半", "刻", "个", "点", "分", "钟", "秒", "小时", "后", "前",
    "明天", "下周", "周", "星期", "一", "二", "月", "日", "号", "年", "早上", "晚上", "半夜", "凌晨",
    "0", "1", "2", "9", ":", "/", "-", ".", " ", "am", "pm", "at", "in", "an", "hour", "and a half",
    "minutes", "next", "friday", "or", "twenty", "hundred", "杭州", "new york", "here", "步", "心率",
    "睡", "😀", "\u{200F}", "\u{301}", "\u{0}", "\n", "ｓ", "８", "點", "鐘", "'", "e", "x",
  ]

  static func run(_ text: String) {
    let normalized = Normalizer().normalize(text)
    #expect(normalized.scalars.count == normalized.sourceStarts.count)
    let entities = EntityTestSupport.entities(text)
    #expect(
      entities.allSatisfy {
        $0.range.lowerBound >= 0 && $0.range.upperBound <= normalized.scalars.count
      })
    for type in EntityType.allCases {
      let ranges = entities.filter { $0.type == type }.map(\.range)
      let isDisjoint = zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound }
      #expect(isDisjoint, "overlapping \(type) entities in \(text.prefix(40).debugDescription)")
    }
    _ = PayloadText.payload(in: normalized, removing: entities.map(\.range))
  }

  @Test(arguments: 0..<8)
  func seededRandomUtterancesNeverCrash(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed))
    for _ in 0..<250 {
      var text = ""
      for _ in 0..<Int.random(in: 0..<24, using: &generator) {
        text += Self.alphabet.randomElement(using: &generator) ?? ""
      }
      Self.run(text)
    }
  }

  @Test func randomScalarsNeverCrash() {
    var generator = SeededGenerator(seed: 42)
    for _ in 0..<200 {
      var text = ""
      for _ in 0..<Int.random(in: 0..<40, using: &generator) {
        if let scalar = Unicode.Scalar(UInt32.random(in: 0..<0x30000, using: &generator)) {
          text.unicodeScalars.append(scalar)
        }
      }
      Self.run(text)
    }
  }

  static let hostile: [String] = [
    "", " ", "\u{0}\u{1}\u{7F}", "99999999999999999999分钟", "25:99", "2月30日",
    String(repeating: "9", count: 400) + "分钟", String(repeating: "一", count: 30) + "分钟",
    String(repeating: "亿", count: 40) + "三", "e" + String(repeating: "\u{301}", count: 500),
    String(repeating: "\u{200F}", count: 100) + "明天", String(repeating: "😀", count: 300),
    "1-2-3-4-5-6", "12/25/99999", "0:00", "24:00", "24:01", "at 99", "00000000000000000001点",
    "one one one one one one", "two or three or four", "a hundred and a hundred", "半半半半小时",
  ]

  @Test(arguments: hostile)
  func hostileUtterancesNeverCrash(_ text: String) {
    Self.run(text)
  }

  /// A long input named by its repeated piece, so test output stays readable.
  struct LongInput: Sendable, CustomTestStringConvertible {
    var piece: String
    var count: Int
    var text: String { String(repeating: piece, count: count) }
    var testDescription: String { "\(piece.debugDescription) × \(count)" }
  }

  @Test(arguments: [
    LongInput(piece: "三分钟后提醒我买牛奶，", count: 20_000), LongInput(piece: "1", count: 200_000),
    LongInput(piece: "一", count: 200_000), LongInput(piece: "明天早上八点 ", count: 30_000),
    LongInput(piece: "e\u{301}", count: 100_000), LongInput(piece: "twenty ", count: 30_000),
    LongInput(piece: "杭州", count: 100_000), LongInput(piece: "1:1/", count: 50_000),
  ])
  func twoHundredKilobyteLinesComplete(_ input: LongInput) {
    Self.run(input.text)
  }
}
