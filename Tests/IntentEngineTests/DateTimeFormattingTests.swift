import Foundation
import IntentEngine
import Testing
import TestSupport

/// The hand-written ISO 8601 rendering agrees with Foundation's formatter.
struct DateTimeFormattingTests {
  static let zones = [
    "Asia/Shanghai", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "UTC",
    "America/St_Johns",
  ]

  @Test(arguments: zones)
  func matchesFoundationAcrossYearsAndOffsets(_ zoneName: String) throws {
    let zone = try #require(TimeZone(identifier: zoneName))
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = zone
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<500 {
      let seconds = Double(Int64.random(in: 0...4_000_000_000, using: &generator))
      let date = Date(timeIntervalSince1970: seconds)
      let value = DateTimeValue(date: date, timeZone: zone, grain: .minute, isWindow: false)
      var expected = formatter.string(from: date)
      if expected.hasSuffix("Z") { expected = String(expected.dropLast()) + "+00:00" }
      #expect(value.iso8601 == expected)
      #expect(value.isoDate == String(expected.prefix(10)))
    }
  }
}
