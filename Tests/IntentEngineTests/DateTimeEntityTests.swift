import Foundation
import Testing

@testable import IntentEngine

/// Helpers shared by the entity tests: a fixed clock and a one-call extraction.
enum EntityTestSupport {
  static let extractor = EntityExtractor(gazetteer: (try? Gazetteer.builtin()) ?? Gazetteer())

  /// Monday 2026-11-30 09:00 in Shanghai, the default clock of the time rules.
  static let shanghaiMonday = context("2026-11-30T09:00:00+08:00", "Asia/Shanghai")

  static func context(_ now: String, _ zone: String) -> ParseContext {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return ParseContext(
      now: formatter.date(from: now) ?? Date(timeIntervalSince1970: 0),
      timeZone: TimeZone(identifier: zone) ?? .gmt)
  }

  static func entities(_ text: String, _ context: ParseContext = shanghaiMonday) -> [Entity] {
    extractor.entities(in: Normalizer().normalize(text), context: context)
  }

  static func datetimes(_ text: String, _ context: ParseContext = shanghaiMonday) -> [DateTimeValue]
  {
    entities(text, context).compactMap { entity in
      if case .datetime(let value) = entity.value { return value } else { return nil }
    }
  }
}

struct DateTimeEntityTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var text: String
    var iso: String
    var grain: TimeGrain
    var isWindow: Bool
    var testDescription: String { "\(text) → \(iso)" }
  }

  @Test(arguments: [
    Case(text: "三分钟后", iso: "2026-11-30T09:03:00+08:00", grain: .second, isWindow: false),
    Case(text: "明天", iso: "2026-12-01T09:00:00+08:00", grain: .day, isWindow: true),
    Case(text: "明天早上", iso: "2026-12-01T08:00:00+08:00", grain: .hour, isWindow: true),
    Case(text: "明天早上八点", iso: "2026-12-01T08:00:00+08:00", grain: .minute, isWindow: false),
    Case(text: "下周", iso: "2026-12-07T09:00:00+08:00", grain: .week, isWindow: true),
    Case(text: "下个月", iso: "2026-12-01T09:00:00+08:00", grain: .month, isWindow: true),
  ])
  func reportsGrainAndWindow(_ c: Case) {
    let value = EntityTestSupport.datetimes(c.text).last
    #expect(value?.iso8601 == c.iso)
    #expect(value?.grain == c.grain)
    #expect(value?.isWindow == c.isWindow)
  }

  @Test func bareClockAfterItsMorningHourIsReadAsEveningAndSaysSo() throws {
    let entity = try #require(EntityTestSupport.entities("八点").first { $0.type == .datetime })
    #expect(entity.value.json(as: .datetime) == .string("2026-11-30T20:00:00+08:00"))
    #expect(entity.note == "'八点' after 08:00 read as 20:00")
  }

  @Test func clockStillAheadTodayStaysInTheMorning() {
    #expect(EntityTestSupport.datetimes("十点").map(\.iso8601) == ["2026-11-30T10:00:00+08:00"])
  }

  @Test(arguments: ["2月30日", "4月31日", "25:99", "明天25:99", "13月1日", "February 30th"])
  func invalidDatesAndTimesGiveNoDatetimeAndNoStrayNumbers(_ text: String) {
    #expect(EntityTestSupport.entities(text).isEmpty)
  }

  /// An ordinal word is a day beside a month's name, and counts times or things without one.
  @Test func ordinalWordsAreDaysOnlyBesideAMonth() {
    #expect(
      EntityTestSupport.datetimes("on the fourth of december").map(\.iso8601) == [
        "2026-12-04T09:00:00+08:00"
      ])
    #expect(
      EntityTestSupport.datetimes("january twelfth").map(\.iso8601) == [
        "2027-01-12T09:00:00+08:00"
      ])
    #expect(EntityTestSupport.datetimes("the fourth time").isEmpty)
  }

  /// "arvo" is the afternoon: "at 2" beside it is 14:00.
  @Test func arvoIsTheAfternoon() {
    #expect(
      EntityTestSupport.datetimes("in the arvo at 2").map(\.iso8601) == [
        "2026-11-30T14:00:00+08:00"
      ])
  }

  @Test func pastOnlyReferencesGiveAPeriodButNoDatetime() {
    let entities = EntityTestSupport.entities("昨晚睡得怎么样")
    #expect(entities.map(\.type) == [.period, .metric])
  }

  @Test func dayAcrossTheEndOfDaylightSavingKeepsItsWallClock() {
    let saturday = EntityTestSupport.context("2026-10-31T09:00:00-04:00", "America/New_York")
    #expect(
      EntityTestSupport.datetimes("tomorrow at 8am", saturday).map(\.iso8601) == [
        "2026-11-01T08:00:00-05:00"
      ])
    #expect(
      EntityTestSupport.datetimes("in 24 hours", saturday).map(\.iso8601) == [
        "2026-11-01T08:00:00-05:00"
      ])
  }

  @Test func dayAcrossTheStartOfDaylightSavingKeepsItsWallClock() {
    let saturday = EntityTestSupport.context("2027-03-13T09:00:00-05:00", "America/New_York")
    #expect(
      EntityTestSupport.datetimes("明天早上九点", saturday).map(\.iso8601) == [
        "2027-03-14T09:00:00-04:00"
      ])
  }

  @Test func weatherDateSlotIsTheIsoDay() throws {
    let entity = try #require(EntityTestSupport.entities("周末杭州下雨吗").first { $0.type == .datetime })
    #expect(entity.value.json(as: .date) == .string("2026-12-05"))
  }

  @Test func sameWeekdayAsTodayMeansNextWeekAndSaysSo() throws {
    let entity = try #require(EntityTestSupport.entities("周一").first)
    #expect(entity.value.json(as: .datetime) == .string("2026-12-07T09:00:00+08:00"))
    #expect(entity.note == "a bare weekday naming today means the same day next week")
  }

  /// Calendar days are counted by hand; Foundation's Gregorian calendar must agree on every day
  /// from 1900 to 2100, leap years and century rules included.
  @Test func dayArithmeticAgreesWithFoundationsCalendar() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    let start = try #require(calendar.date(from: DateComponents(year: 1900, month: 1, day: 1)))
    var number = DateTimeResolver.dayNumber((1900, 1, 1))
    #expect(number == -25_567)
    for offset in stride(from: 0, to: 73_415, by: 1) {
      let date = try #require(calendar.date(byAdding: .day, value: offset, to: start))
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      let day = DateTimeResolver.civil(fromDayNumber: number)
      #expect(day.year == parts.year && day.month == parts.month && day.day == parts.day)
      #expect(DateTimeResolver.dayNumber(day) == number)
      #expect(day.day <= DateTimeResolver.daysInMonth(day.year, day.month))
      number += 1
    }
  }

  /// Today's date and weekday come from the zone's offset, not a calendar call; they must match
  /// Foundation's calendar across zones, midnights and daylight-saving changes.
  @Test(arguments: ["Asia/Shanghai", "America/New_York", "Europe/London", "Pacific/Kiritimati"])
  func todayMatchesFoundationsCalendar(_ zone: String) throws {
    let timeZone = try #require(TimeZone(identifier: zone))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    for hour in stride(from: 0, to: 3 * 365 * 24, by: 7) {
      let now = Date(timeIntervalSince1970: 1_767_225_600 + Double(hour) * 3600)
      let today = DateTimeResolver(context: ParseContext(now: now, timeZone: timeZone)).today
      let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: now)
      #expect(today.year == parts.year && today.month == parts.month && today.day == parts.day)
      #expect(today.weekday == ((parts.weekday ?? 0) + 5) % 7 + 1)
    }
  }
}
