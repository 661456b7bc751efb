import Foundation
import TestSupport
import Testing

@testable import intent

// Serialized: each test loads the built-in grammars several times, synchronously on the shared
// cooperative pool; run side by side they starve the loopback-server tests of threads.
/// `intent run --session FILE`: a command that lacks a detail asks for it, and the next run
/// answers it.
@Suite(.serialized)
struct RunSessionTests {
  let now = "2026-11-30T09:00:00+08:00"

  func run(
    _ cli: CommandHarness, _ text: String, at now: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [String: Any] {
    let session = cli.folder.url.appendingPathComponent("session.json").path
    let status = await cli.run(
      ["run", "--json", "--route", "local", "--session", session, "--now", now ?? self.now, text],
      builtins: true)
    #expect(status == 0, "\(cli.stderr)", sourceLocation: sourceLocation)
    return try #require(cli.json, "\(cli.stdout)", sourceLocation: sourceLocation)
  }

  @Test func timerAsksForItsDurationAndTheAnswerStartsIt() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let asked = try await run(cli, "set a timer")
    #expect(asked["intent"] as? String == "timer.start")
    #expect(asked["route"] as? String == "local")
    #expect(asked["missing_slots"] as? [String] == ["duration"])
    #expect(asked["prompt"] as? String == "For how long?")
    #expect(asked["result"] is NSNull)
    #expect(await cli.run(["timers", "--json", "--now", now]) == 0)
    #expect(!cli.stdout.contains("\"id\""), "no timer runs before the answer: \(cli.stdout)")

    let answered = try await run(cli, "ten minutes", at: "2026-11-30T09:00:20+08:00")
    #expect(answered["intent"] as? String == "timer.start")
    #expect(answered["missing_slots"] == nil)
    let result = try #require(answered["result"] as? [String: Any])
    #expect(result["duration"] as? Double == 600)
    #expect(result["fire_date"] as? String == "2026-11-30T09:10:20+08:00")

    let again = try await run(cli, "ten minutes", at: "2026-11-30T09:00:40+08:00")
    #expect(again["result"] is NSNull, "the question was answered once")
  }

  @Test func chineseAlarmAsksWhenAndTheAnswerSetsItForTomorrowMorning() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let asked = try await run(cli, "帮我定个闹钟")
    #expect(asked["intent"] as? String == "reminder.create")
    #expect(asked["missing_slots"] as? [String] == ["datetime"])
    #expect(asked["prompt"] as? String == "什么时候提醒你？")
    #expect(asked["result"] is NSNull)

    let answered = try await run(cli, "明天早上七点")
    #expect(answered["intent"] as? String == "reminder.create")
    let result = try #require(answered["result"] as? [String: Any])
    let reminder = try #require(result["reminder"] as? [String: Any])
    #expect(reminder["fire_date"] as? String == "2026-12-01T07:00:00+08:00")
    #expect(await cli.run(["reminders", "--json", "--now", now]) == 0)
    #expect(cli.stdout.contains("2026-12-01T07:00:00+08:00"))
  }

  @Test func questionOlderThanFiveMinutesIsNotAnswered() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    _ = try await run(cli, "set a timer")
    let late = try await run(cli, "ten minutes", at: "2026-11-30T09:05:01+08:00")
    #expect(late["result"] is NSNull)
    #expect(late["intent"] is NSNull)
  }

  @Test func corruptSessionFileIsSetAsideAndTheRunGoesOn() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let file = cli.folder.url.appendingPathComponent("session.json")
    try Data("{not json".utf8).write(to: file)
    let asked = try await run(cli, "set a timer")
    #expect(asked["prompt"] as? String == "For how long?")
    #expect(cli.stderr.contains("warning: session file"), "\(cli.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: cli.folder.url.path)
    #expect(names.contains { $0.hasPrefix("session.json.corrupt-") }, "\(names)")
    let answered = try await run(cli, "ten minutes")
    #expect((answered["result"] as? [String: Any])?["duration"] as? Double == 600)
  }

  @Test func withoutASessionAnAnswerStandsAlone() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(
      await cli.run(
        ["run", "--json", "--route", "local", "--now", now, "set a timer"], builtins: true)
        == 0)
    #expect(
      await cli.run(
        ["run", "--json", "--route", "local", "--now", now, "ten minutes"], builtins: true)
        == 0)
    #expect(cli.json?["result"] is NSNull)
  }
}
