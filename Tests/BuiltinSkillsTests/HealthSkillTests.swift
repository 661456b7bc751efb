import BuiltinSkills
import Foundation
import Skills
import TestSupport
import Testing

struct HealthSkillTests {
  let now = Date(timeIntervalSince1970: 1_796_025_600)  // 2026-11-30T16:00:00+08:00, a Monday
  let shanghai = TimeZone(identifier: "Asia/Shanghai") ?? .gmt

  /// An export in Apple Health's format, with its DOCTYPE, around `records`.
  static func export(_ records: [String]) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!ELEMENT HealthData (ExportDate,Me,(Record|Workout)*)>
    <!ATTLIST HealthData locale CDATA #REQUIRED>
    ]>
    <HealthData locale="zh_CN">
     <ExportDate value="2026-11-30 16:00:00 +0800"/>
     <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>
    \(records.joined(separator: "\n"))
    </HealthData>
    """
  }

  static func steps(_ start: String, _ value: Int, source: String = "iPhone") -> String {
    #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\#(source)" unit="count" creationDate="\#(start)" startDate="\#(start)" endDate="\#(start)" value="\#(value)"/>"#
  }

  static func heart(_ start: String, _ value: Int) -> String {
    #" <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Apple Watch" unit="count/min" creationDate="\#(start)" startDate="\#(start)" endDate="\#(start)" value="\#(value)"><MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/></Record>"#
  }

  static func sleep(_ start: String, _ end: String, _ value: String, source: String = "Apple Watch")
    -> String
  {
    #" <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="\#(source)" creationDate="\#(end)" startDate="\#(start)" endDate="\#(end)" value="HKCategoryValueSleepAnalysis\#(value)"/>"#
  }

  func skill(_ folder: TemporaryDirectory, _ xml: String) throws -> AnySkill {
    let url = folder.url.appendingPathComponent("export.xml")
    try Data(xml.utf8).write(to: url)
    return AnySkill(HealthSkill(exportURL: url, wallClock: .fixed(now), timeZone: shanghai))
  }

  func run(_ skill: AnySkill, _ json: String) async throws -> [String: Any] {
    let data = try await skill.call(with: Data(json.utf8)).perform()
    return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
  }

  @Test func sumsStepsPerDayInTheUsersTimeZone() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let health = try skill(
      folder,
      Self.export([
        Self.steps("2026-11-30 08:00:00 +0800", 3000),
        Self.steps("2026-11-30 12:30:00 +0800", 2532),
        // 23:30 UTC on the 29th is 07:30 on the 30th in Shanghai.
        Self.steps("2026-11-29 23:30:00 +0000", 3000),
        Self.steps("2026-11-29 22:00:00 +0800", 9999),
        Self.steps("2026-11-24 10:00:00 +0800", 4000),
      ]))
    let today = try await run(health, #"{"metric": "steps", "lang": "zh"}"#)
    #expect(today["total"] as? Double == 8532)
    #expect(today["message"] as? String == "今天走了8,532步")
    let lastWeek = try await run(
      health, #"{"metric": "steps", "period": "last_week", "lang": "en"}"#)
    #expect(
      lastWeek["message"] as? String
        == "13,999 steps last week, 7,000 a day on average over 2 days")
    #expect(lastWeek["start_date"] as? String == "2026-11-23")
    #expect(lastWeek["end_date"] as? String == "2026-11-29")
  }

  @Test func lastMonthIsTheWholeCalendarMonthBeforeThisOne() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let health = try skill(
      folder,
      Self.export([
        Self.steps("2026-10-31 23:00:00 +0800", 1000),
        Self.steps("2026-10-01 07:00:00 +0800", 2000),
        // 16:30 UTC on 30 September is 00:30 on 1 October in Shanghai.
        Self.steps("2026-09-30 16:30:00 +0000", 500),
        Self.steps("2026-09-30 12:00:00 +0800", 9000),
        Self.steps("2026-11-01 00:30:00 +0800", 7000),
      ]))
    let lastMonth = try await run(
      health, #"{"metric": "steps", "period": "last_month", "lang": "zh"}"#)
    #expect(lastMonth["total"] as? Double == 3500)
    #expect(lastMonth["start_date"] as? String == "2026-10-01")
    #expect(lastMonth["end_date"] as? String == "2026-10-31")
    #expect((lastMonth["message"] as? String)?.hasPrefix("上个月") == true)
  }

  @Test func aDayCountedByTwoSourcesIsNotCountedTwice() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let health = try skill(
      folder,
      Self.export([
        Self.steps("2026-11-30 08:00:00 +0800", 5000, source: "iPhone"),
        Self.steps("2026-11-30 08:00:00 +0800", 5200, source: "Apple Watch"),
      ]))
    #expect(try await run(health, #"{"metric": "steps"}"#)["total"] as? Double == 5200)
  }

  @Test func heartRateHasAverageMinimumAndMaximum() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let health = try skill(
      folder,
      Self.export([
        Self.heart("2026-11-30 08:00:00 +0800", 58), Self.heart("2026-11-30 09:00:00 +0800", 72),
        Self.heart("2026-11-30 10:00:00 +0800", 131), Self.heart("2026-11-29 10:00:00 +0800", 200),
      ]))
    let result = try await run(health, #"{"metric": "heart_rate", "lang": "en"}"#)
    #expect(result["average"] as? Double == 87)
    #expect(
      result["message"] as? String == "heart rate today: average 87 bpm, min 58, max 131")
  }

  @Test func sleepIsHoursAsleepPerNightWithoutInBedOrOverlaps() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let health = try skill(
      folder,
      Self.export([
        Self.sleep(
          "2026-11-29 22:30:00 +0800", "2026-11-30 06:30:00 +0800", "InBed", source: "iPhone"),
        Self.sleep("2026-11-29 23:00:00 +0800", "2026-11-30 02:00:00 +0800", "AsleepCore"),
        Self.sleep("2026-11-30 02:00:00 +0800", "2026-11-30 02:30:00 +0800", "Awake"),
        Self.sleep("2026-11-30 02:30:00 +0800", "2026-11-30 06:00:00 +0800", "AsleepDeep"),
        // The phone's overlapping estimate must not add hours.
        Self.sleep(
          "2026-11-30 03:00:00 +0800", "2026-11-30 05:00:00 +0800", "AsleepUnspecified",
          source: "iPhone"),
        Self.sleep("2026-11-28 23:00:00 +0800", "2026-11-29 05:00:00 +0800", "AsleepCore"),
      ]))
    let lastNight = try await run(health, #"{"metric": "sleep", "lang": "zh"}"#)
    #expect(lastNight["message"] as? String == "昨晚睡了6.5小时")
    let week = try await run(health, #"{"metric": "sleep", "period": "this_week", "lang": "en"}"#)
    #expect(week["message"] as? String == "no sleep data for this week")
    let lastWeek = try await run(
      health, #"{"metric": "sleep", "period": "last_week", "lang": "en"}"#)
    #expect(
      lastWeek["message"] as? String
        == "6.3 hours a night on average last week (2 nights)")
  }

  @Test func missingMalformedOrForeignExportsGetClearMessages() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let missing = folder.url.appendingPathComponent("none.xml")
    let absent = AnySkill(
      HealthSkill(exportURL: missing, wallClock: .fixed(now), timeZone: shanghai))
    await #expect(
      throws: SkillError.failed(
        "cannot read the health export '\(missing.path)'; export it from the Health app ('Export All Health Data') and point INTENT_HEALTH_EXPORT at its export.xml"
      )
    ) {
      _ = try await run(absent, #"{"metric": "steps"}"#)
    }
    let broken = try skill(folder, "<HealthData><Record type=\"x\"")
    await #expect {
      _ = try await run(broken, #"{"metric": "steps"}"#)
    } throws: { error in
      "\(error)".contains("is not valid XML at line 1")
    }
    let foreign = try skill(folder, "<rss><channel/></rss>")
    await #expect {
      _ = try await run(foreign, #"{"metric": "steps"}"#)
    } throws: { error in
      "\(error)".contains("is not an Apple Health export (its root element is 'rss'")
    }
    let unset = AnySkill(HealthSkill(exportURL: nil))
    await #expect {
      _ = try await run(unset, #"{"metric": "sleep"}"#)
    } throws: { error in
      "\(error)".hasPrefix("INTENT_HEALTH_EXPORT is not set")
    }
  }

  @Test(arguments: [
    ("2026-11-30 08:00:00 +0800", 1_795_996_800.0), ("2026-11-30 00:00:00 +0000", 1_795_996_800.0),
    ("1970-01-01 00:00:00 -0130", 5_400.0),
  ])
  func readsHealthDates(text: String, seconds: Double) {
    #expect(HealthExportReader.date(text)?.timeIntervalSince1970 == seconds)
  }

  @Test(arguments: ["", "2026-13-01 00:00:00 +0800", "2026-11-30", "99999-1-1 0:0:0 +0000"])
  func refusesDatesThatAreNotHealthDates(text: String) {
    #expect(HealthExportReader.date(text) == nil)
  }
}
