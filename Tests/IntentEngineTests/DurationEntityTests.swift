import Testing

@testable import IntentEngine

struct DurationEntityTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var text: String
    var seconds: Double
    var testDescription: String { "\(text) → \(seconds) s" }
  }

  @Test(arguments: [
    Case(text: "三分钟", seconds: 180), Case(text: "3分钟", seconds: 180),
    Case(text: "一个半小时", seconds: 5400), Case(text: "半小时", seconds: 1800),
    Case(text: "一刻钟", seconds: 900), Case(text: "两分半钟", seconds: 150),
    Case(text: "90秒", seconds: 90), Case(text: "1h30m", seconds: 5400),
    Case(text: "5min", seconds: 300),
    Case(text: "ten minutes", seconds: 600), Case(text: "an hour and a half", seconds: 5400),
    Case(text: "90 seconds", seconds: 90), Case(text: "1.5 hours", seconds: 5400),
    Case(text: "1小时20分", seconds: 4800), Case(text: "2分30秒", seconds: 150),
    Case(text: "half an hour", seconds: 1800), Case(text: "一小时半", seconds: 5400),
    // The parts of one length joined by 又, 再加 or "and"; quarters of an hour.
    Case(text: "一小时又十五分钟", seconds: 4500), Case(text: "三分钟再加三十秒", seconds: 210),
    Case(text: "an hour and ten minutes", seconds: 4200),
    Case(text: "three quarters of an hour", seconds: 2700),
    // "more" and "extra" between the number and its unit, as 个 in 一个小时.
    Case(text: "10 more minutes", seconds: 600), Case(text: "one more minute", seconds: 60),
    // Speech heard as text: "to" and "too" right before a unit are "two"; "an our" an hour.
    Case(text: "in to hours", seconds: 7200), Case(text: "too mins", seconds: 120),
    Case(text: "in an our", seconds: 3600),
  ])
  func readsDurationsInSeconds(_ c: Case) {
    let durations = EntityTestSupport.entities(c.text).filter { $0.type == .duration }
    #expect(durations.map(\.value) == [.duration(seconds: c.seconds)])
  }

  @Test(arguments: ["两三分钟", "two or three minutes", "2 or 3 minutes"])
  func rangeResolvesToItsUpperBoundAndSaysSo(_ text: String) throws {
    let duration = try #require(EntityTestSupport.entities(text).first { $0.type == .duration })
    #expect(duration.value == .duration(seconds: 180))
    #expect(duration.note == "range 2–3 resolved to upper bound 3")
  }

  @Test func relativeTimeGivesBothADurationAndADatetime() {
    let entities = EntityTestSupport.entities("三分钟后提醒我")
    #expect(entities.map(\.type) == [.duration, .datetime])
    #expect(entities.map(\.range) == [0..<3, 0..<4])
  }

  @Test func absurdDurationIsNotReadAndItsNumberSaysWhy() throws {
    let entities = EntityTestSupport.entities("99999999999999999999分钟")
    let number = try #require(entities.first)
    #expect(entities.count == 1)
    #expect(number.type == .number)
    #expect(
      number.note == "'99999999999999999999分钟' is longer than a year; not read as a duration")
  }

  @Test func clockMinutesAreNotADuration() {
    #expect(!EntityTestSupport.entities("八点十分").contains { $0.type == .duration })
  }
}
