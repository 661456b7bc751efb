@testable import BuiltinSkills
import Foundation
import Skills
import TestSupport
import Testing

struct TimerSkillTests {
  let start = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30T08:53:20+08:00
  let shanghai = TimeZone(identifier: "Asia/Shanghai") ?? .gmt

  func input(_ text: String) -> Data { Data(text.utf8) }

  func run(_ skill: AnySkill, _ json: String) async throws -> String {
    let output = try await skill.call(with: input(json)).perform()
    return String(decoding: output, as: UTF8.self)
  }

  @Test func startCreatesAStoredTimerFiringAfterTheDurationOnTheInjectedClock() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let skills = Builtins.makeSkills(
      dataDirectory: folder.url, wallClock: .fixed(start), timeZone: shanghai)
    let registry = try SkillRegistry(skills)
    let startSkill = try #require(registry.skill(for: "timer.start"))
    let output = try await run(startSkill, #"{"duration": 180, "text": "关火"}"#)
    #expect(
      output
        == #"{"duration":180,"fire_date":"2026-11-30T08:56:20+08:00","id":1,"label":"关火","message":"timer '关火' set for 3 min"}"#
    )
    let store = TimerStore(directory: folder.url, wallClock: .fixed(start.addingTimeInterval(60)))
    let running = await store.runningTimers()
    #expect(running.map(\.label) == ["关火"])
    #expect(running.first?.remaining(at: start.addingTimeInterval(60)) == 120)
  }

  @Test func unnamedTimerGetsTheDefaultLabel() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let skill = AnySkill(
      StartTimerSkill(store: TimerStore(directory: folder.url, wallClock: .fixed(start))))
    let output = try await run(skill, #"{"duration": 600}"#)
    #expect(output.contains(#""label":"timer""#))
  }

  @Test(arguments: [
    (#"{"duration": 0}"#, "slot 'duration' must be at least one second"),
    (
      #"{"duration": 99999999}"#,
      "slot 'duration' must be at most 7 days; use a reminder for later times"
    ),
  ])
  func rejectsDurationsATimerCannotHave(json: String, message: String) async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let skill = AnySkill(StartTimerSkill(store: TimerStore(directory: folder.url)))
    await #expect(throws: SkillError.invalidInput(message)) {
      try await skill.call(with: input(json)).perform()
    }
  }

  @Test func cancelTakesTheLatestANamedOneOrAll() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let date = TestDate(start)
    let store = TimerStore(directory: folder.url, wallClock: WallClock { date.now })
    let cancel = AnySkill(CancelTimerSkill(store: store))
    for label in ["煮鸡蛋", "关火", "午休", "泡茶"] {
      _ = try await store.start(label: label, duration: 600)
      date.advance(by: 1)
    }
    #expect(try await run(cancel, "{}").contains("cancelled timer '泡茶'"))
    #expect(try await run(cancel, #"{"text": "煮鸡蛋的"}"#).contains("cancelled timer '煮鸡蛋'"))
    #expect(await store.runningTimers().map(\.label) == ["关火", "午休"])
    #expect(try await run(cancel, #"{"text": "所有"}"#).contains("cancelled 2 timers"))
    #expect(await store.runningTimers().isEmpty)
    #expect(try await run(cancel, "{}").contains("no timers are running"))
  }

  @Test func cancellingAnUnknownNameSaysWhatIsRunning() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = TimerStore(directory: folder.url, wallClock: .fixed(start))
    _ = try await store.start(label: "关火", duration: 60)
    let cancel = AnySkill(CancelTimerSkill(store: store))
    await #expect(
      throws: SkillError.invalidInput("no timer named '煮鸡蛋' is running; running timers: '关火'")
    ) {
      try await cancel.call(with: input(#"{"text": "煮鸡蛋"}"#)).perform()
    }
  }

  @Test func firedTimersAreNoLongerListed() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let date = TestDate(start)
    let store = TimerStore(directory: folder.url, wallClock: WallClock { date.now })
    _ = try await store.start(label: "short", duration: 30)
    _ = try await store.start(label: "long", duration: 300)
    date.advance(by: 60)
    #expect(await store.runningTimers().map(\.label) == ["long"])
  }

  @Test func corruptStoreIsSetAsideAndReported() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent(TimerStore.fileName)
    try Data("[not timers".utf8).write(to: file)
    let problems = ProblemLog()
    let store = TimerStore(directory: folder.url, wallClock: .fixed(start), problems: problems)
    let timer = try await store.start(label: "关火", duration: 60)
    #expect(timer.id == 1)
    let reports = await problems.drain()
    #expect(reports.count == 1)
    #expect(reports.first?.contains("is corrupt; moved it to") == true)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(names.contains { $0.hasPrefix("timers.json.corrupt-") })
  }

  @Test(
    arguments: [
      (nil, TimerStore.Selection.latest), ("", .latest), ("的", .latest), ("全部", .all),
      ("All", .all), ("煮鸡蛋的", .named("煮鸡蛋")), ("tea", .named("tea")),
    ] as [(String?, TimerStore.Selection)])
  func readsTheTextSlotAsLatestNamedOrAll(text: String?, selection: TimerStore.Selection) {
    #expect(CancelTimerSkill.selection(for: text) == selection)
  }
}

struct TimerStoreRegressionTests {
  let start = Date(timeIntervalSince1970: 1_796_000_000)

  @Test func aCounterAtTheLargestNumberIsRenumberedNotATrap() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent(TimerStore.fileName)
    try Data(#"{"version":1,"next_id":9223372036854775807,"timers":[]}"#.utf8).write(to: file)
    let problems = ProblemLog()
    let store = TimerStore(directory: folder.url, wallClock: .fixed(start), problems: problems)
    let first = try await store.start(label: "关火", duration: 60)
    let second = try await store.start(label: "泡茶", duration: 60)
    #expect(first.id == 1)
    #expect(second.id == 2)
    #expect(await problems.drain().first?.contains("out-of-range 'next_id'") == true)
  }

  @Test func aCounterTooLargeForIntStillKeepsTheTimers() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent(TimerStore.fileName)
    try Data(
      #"{"version":1,"next_id":92233720368547758070,"timers":[{"id":3,"label":"关火","duration":600,"started_at":"2026-11-30T00:50:00Z","fire_date":"2026-11-30T01:00:00Z"}]}"#
        .utf8
    ).write(to: file)
    let store = TimerStore(directory: folder.url, wallClock: .fixed(start))
    #expect(try await store.start(label: "泡茶", duration: 60).id == 4)
    #expect(await store.runningTimers().map(\.label) == ["泡茶", "关火"])
  }

  @Test func aFutureVersionIsNeitherRewrittenNorLost() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent(TimerStore.fileName)
    let original =
      #"{"version":99,"next_id":2,"alarms":[1],"timers":[{"id":1,"label":"关火","duration":600,"started_at":"2026-11-30T00:50:00Z","fire_date":"2026-11-30T01:00:00Z"}]}"#
    try Data(original.utf8).write(to: file)
    let store = TimerStore(directory: folder.url, wallClock: .fixed(start))
    #expect(await store.runningTimers().map(\.label) == ["关火"])
    await #expect {
      try await store.start(label: "泡茶", duration: 60)
    } throws: { error in
      "\(error)".contains("has format version 99") && "\(error)".contains(file.path)
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == original)
  }

  @Test func oneMalformedTimerDoesNotHideTheOthers() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent(TimerStore.fileName)
    try Data(
      #"{"version":1,"next_id":3,"timers":[{"id":1,"label":"关火","duration":600,"started_at":"2026-11-30T00:50:00Z","fire_date":"2026-11-30T01:00:00Z"},{"id":2,"label":7}]}"#
        .utf8
    ).write(to: file)
    let problems = ProblemLog()
    let store = TimerStore(directory: folder.url, wallClock: .fixed(start), problems: problems)
    #expect(await store.runningTimers().map(\.label) == ["关火"])
    #expect(await problems.drain().first?.contains("had 1 entry that cannot be read") == true)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(names.contains { $0.hasPrefix("timers.json.corrupt-") })
  }
}
