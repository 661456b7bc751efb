import Foundation
import TestSupport
import Testing

@testable import intent

/// `intent reminders`, `intent memos` and `intent due`, fed by `intent run` with the built-in
/// grammars.
struct SkillCommandsTests {
  let now = "2026-11-30T09:00:00+08:00"

  @Test func aReminderSetByRunIsListedThenReportedDueOnce() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(
      await cli.run(["run", "--route", "local", "--now", now, "明天早上七点提醒我带伞"], builtins: true) == 0)
    #expect(cli.stdout.contains("已设置提醒：明天 07:00 带伞"))
    #expect(!cli.stderr.contains("not available yet"))
    #expect(await cli.run(["reminders", "--now", now]) == 0)
    #expect(cli.stdout == "#1  2026-12-01 07:00:00  带伞\n")
    #expect(await cli.run(["reminders", "--json", "--now", now]) == 0)
    let reminders = try #require(cli.json?["reminders"] as? [[String: Any]])
    #expect(reminders.first?["fire_date"] as? String == "2026-12-01T07:00:00+08:00")
    #expect(await cli.run(["due", "--now", "2026-12-01T06:59:00+08:00"]) == 0)
    #expect(cli.stdout == "nothing is due\n")
    #expect(await cli.run(["due", "--now", "2026-12-01T07:01:00+08:00"]) == 0)
    #expect(cli.stdout == "reminder #1 '带伞' went off at 2026-12-01 07:00:00\n")
    #expect(await cli.run(["due", "--json", "--now", "2026-12-01T07:02:00+08:00"]) == 0)
    #expect(cli.stdout == "{\n  \"due\": []\n}\n")
    #expect(await cli.run(["reminders", "--now", "2026-12-01T07:02:00+08:00"]) == 0)
    #expect(cli.stdout == "no upcoming reminders\n")
  }

  @Test func aTimerThatWentOffIsReportedByDueWithWhen() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run(["run", "--now", now, "3分钟后提醒我关火"]) == 0)
    #expect(await cli.run(["timers", "--now", "2026-11-30T09:04:00+08:00"]) == 0)
    #expect(cli.stdout == "no timers are running\n")
    #expect(await cli.run(["due", "--json", "--now", "2026-11-30T09:04:00+08:00"]) == 0)
    let due = try #require(cli.json?["due"] as? [[String: Any]])
    #expect(due.count == 1)
    #expect(due.first?["kind"] as? String == "timer")
    #expect(due.first?["title"] as? String == "关火")
    #expect(due.first?["due_at"] as? String == "2026-11-30T09:03:00+08:00")
  }

  @Test func aNoteTakenByRunIsListedByMemos() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(
      await cli.run(["run", "--route", "local", "--now", now, "记一下车停在B2层"], builtins: true) == 0)
    #expect(cli.stdout.contains("已记下：车停在B2层"))
    #expect(await cli.run(["memos"]) == 0)
    #expect(cli.stdout == "#1  车停在B2层  (added 2026-11-30 09:00:00)\n")
    #expect(await cli.run(["memos", "--list", "购物清单"]) == 0)
    #expect(cli.stdout == "the list 'shopping' is empty\n")
    #expect(await cli.run(["memos", "--json"]) == 0)
    let memos = try #require(cli.json?["memos"] as? [[String: Any]])
    #expect(memos.first?["text"] as? String == "车停在B2层")
    #expect(memos.first?["done"] as? Bool == false)
  }

  @Test(arguments: ["reminders", "memos", "due"])
  func listCommandsRejectText(command: String) async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run([command, "关火"]) == 2)
    #expect(
      cli.stderr.hasPrefix("error: unexpected argument '关火'; 'intent \(command)' takes no text\n"))
  }
}

struct WeatherRunTests {
  @Test func answersOnlineThenOfflineWithTheLastGoodResultAndItsAge() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let server = try LoopbackHTTPServer { request in
      request.path.hasPrefix("/v1/search")
        ? .text(OpenMeteoFixtures.hangzhou) : .text(OpenMeteoFixtures.forecast)
    }
    let environment = [
      "INTENT_WEATHER_URL": server.baseURL.absoluteString,
      "INTENT_GEOCODING_URL": server.baseURL.absoluteString,
    ]
    let online = await cli.run(
      ["run", "--json", "--route", "local", "--now", "2026-11-30T09:00:00+08:00", "明天杭州会不会下雨"],
      environment: environment, builtins: true)
    server.stop()
    #expect(online == 0, "\(cli.stderr)")
    let fresh = try #require(cli.json)
    #expect(fresh["stale"] as? Bool == false)
    let freshResult = try #require(fresh["result"] as? [String: Any])
    #expect(freshResult["message"] as? String == "杭州明天：小雨，最高13°C，最低8°C，降水概率80%")

    let offline = await cli.run(
      ["run", "--json", "--route", "local", "--now", "2026-11-30T12:00:00+08:00", "明天杭州会不会下雨"],
      environment: environment, builtins: true)
    #expect(offline == 0, "\(cli.stderr)")
    let stale = try #require(cli.json)
    #expect(stale["stale"] as? Bool == true)
    #expect(stale["age_seconds"] as? Double == 10_800)
    #expect((stale["error"] as? String)?.contains("cannot be reached") == true)
    let result = try #require(stale["result"] as? [String: Any])
    #expect(
      result["message"] as? String == "杭州明天：小雨，最高13°C，最低8°C，降水概率80%（数据更新于3小时前）")
  }

  @Test func withNoServiceAndNothingCachedTheRunSaysWhy() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let port = try LoopbackHTTPServer.unusedPort()
    let status = await cli.run(
      ["run", "--route", "local", "what's the weather in Hangzhou tomorrow"],
      environment: [
        "INTENT_WEATHER_URL": "http://127.0.0.1:\(port)",
        "INTENT_GEOCODING_URL": "http://127.0.0.1:\(port)",
      ], builtins: true)
    #expect(status == 1)
    #expect(cli.stdout.contains("geocoding") == false || cli.stdout.contains("cannot be reached"))
    #expect(cli.stdout.contains("weather service at '127.0.0.1' cannot be reached"))
  }
}

struct HealthRunTests {
  @Test func answersFromTheExportNamedByTheEnvironment() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let export = cli.folder.url.appendingPathComponent("export.xml")
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE HealthData [
      <!ATTLIST HealthData locale CDATA #REQUIRED>
      ]>
      <HealthData locale="en_US">
       <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2026-11-30 08:00:00 +0800" endDate="2026-11-30 08:10:00 +0800" value="1200"/>
       <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2026-11-30 12:00:00 +0800" endDate="2026-11-30 12:10:00 +0800" value="800"/>
      </HealthData>
      """.utf8
    ).write(to: export)
    let status = await cli.run(
      [
        "run", "--json", "--route", "local", "--now", "2026-11-30T18:00:00+08:00",
        "how many steps did I take today",
      ],
      environment: ["INTENT_HEALTH_EXPORT": export.path], builtins: true)
    #expect(status == 0, "\(cli.stderr)")
    let result = try #require(cli.json?["result"] as? [String: Any])
    #expect(result["total"] as? Double == 2000)
    #expect(result["message"] as? String == "2,000 steps today")
  }
}
