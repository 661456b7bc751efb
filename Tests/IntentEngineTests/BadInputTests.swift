import Foundation
import IntentEngine
import Testing

/// Hostile and broken input gets a result, never a crash and never unbounded time.
struct BadInputTests {
  static let engine: Engine? = try? Engine.load()

  static let cases: [String] = [
    "", " ", "\n\t\r ", "。。。！！！", "🙂🙂🙂⏰", "\u{202E}三分钟后提醒我\u{202C}",
    "a" + String(repeating: "\u{0301}", count: 5_000), "\u{0}\u{1}\u{7}\u{1B}[31m天气",
    "99999999999999999999分钟后提醒我", "25:99提醒我", "2月30日提醒我交房租",
    String(repeating: "提醒我", count: 3_000), String(repeating: "remind me and then ", count: 2_000),
    String(repeating: "天气顺便", count: 500), "\u{FEFF}\u{200B}\u{200D}", "ｓｅｔ ａ ｔｉｍｅｒ",
    String(repeating: "9", count: 10_000) + "秒", "-1分钟后提醒我", "0秒后提醒我",
  ]

  @Test(arguments: cases)
  func hostileTextGetsAResult(_ text: String) throws {
    let engine = try #require(Self.engine)
    let result = engine.parse(text)
    #expect((0...1).contains(result.confidence))
    #expect(result.json().jsonText.hasPrefix("{"))
  }

  /// A payload of one or two scalars after a clause break once built an empty-or-inverted range.
  static let shortPayloadAfterBreak: [String] = [
    "ok, remind me at 5pm to b", "好，5日提醒我买", "ok. remind me in 29 minutes to x", "a 好。明天提醒我买",
    "好，提醒我买", "ok, remind me to b", "嗯，明天提醒我a",
  ]

  @Test(arguments: shortPayloadAfterBreak)
  func shortPayloadAfterAClauseBreakGetsAResult(_ text: String) throws {
    let engine = try #require(Self.engine)
    let result = engine.parse(text)
    #expect((0...1).contains(result.confidence))
  }

  @Test func twoHundredKilobyteLineIsReadInBoundedTime() throws {
    let engine = try #require(Self.engine)
    let line = String(repeating: "明天早上八点提醒我买牛奶然后", count: 15_000)
    #expect(line.utf8.count > 200_000)
    let result = engine.parse(line)
    #expect(result.text == line)
    #expect(result.explanation.contains { $0.kind == .note })
  }

  @Test func invalidUTF8DecodedLeniently() throws {
    let engine = try #require(Self.engine)
    let bytes: [UInt8] = [0xE4, 0xBB, 0x8A, 0xFF, 0xFE, 0xE5, 0xA4, 0xA9]
    let text = String(decoding: bytes, as: UTF8.self)
    _ = engine.parse(text)
  }
}
