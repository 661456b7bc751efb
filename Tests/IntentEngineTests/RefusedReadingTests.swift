import Foundation
import IntentEngine
import Testing

/// A negative or absurd value is no slot value: the slot is left missing (and asked for), or the
/// utterance is not understood, never filled with a number the user did not say.
struct RefusedReadingTests {
  static let engine: Engine? = try? Engine.load()
  static let context = ParseContext(
    now: Date(timeIntervalSince1970: 1_796_000_000),
    timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)

  struct Case: Sendable, CustomTestStringConvertible {
    var text: String
    var slot: String
    var testDescription: String { "\(text) → no '\(slot)'" }
  }

  static let cases: [Case] = [
    Case(text: "set a timer for -5 minutes", slot: "duration"),
    Case(text: "set a timer for −5 minutes", slot: "duration"),
    Case(text: "负五分钟后提醒我", slot: "duration"),
    Case(text: "set a timer for 1e308 seconds", slot: "duration"),
    Case(text: "set a timer for 2e3 seconds", slot: "duration"),
    Case(text: "99999999999999999999分钟后提醒我", slot: "duration"),
    Case(text: "set a timer for 500 years", slot: "duration"),
    Case(text: "公元前3000年1月1日提醒我", slot: "datetime"),
    Case(text: "3000年1月1日提醒我", slot: "datetime"),
  ]

  @Test(arguments: cases)
  func absurdValueIsNotASlotValue(_ c: Case) throws {
    let engine = try #require(Self.engine)
    let result = engine.parse(c.text, context: Self.context)
    #expect(result.slot(c.slot) == nil)
    if result.intent != nil {
      #expect(result.missingSlots.contains(c.slot))
    }
  }

  /// What stays readable next to the refused forms.
  @Test(arguments: [
    ("set a timer for 5 minutes", "duration", 300.0), ("五分钟后提醒我", "duration", 300),
    ("set a timer for 1.5 hours", "duration", 5_400),
  ])
  func plainValueIsStillRead(_ text: String, _ slot: String, _ value: Double) throws {
    let engine = try #require(Self.engine)
    #expect(engine.parse(text, context: Self.context).slot(slot)?.numberValue == value)
  }

  @Test func dateInANearYearIsStillRead() throws {
    let engine = try #require(Self.engine)
    let result = engine.parse("2027年1月1日提醒我交房租", context: Self.context)
    #expect(result.slot("datetime")?.stringValue?.hasPrefix("2027-01-01") == true)
  }
}
