import Foundation
import Synchronization
import TestSupport
import Testing

@testable import intent

/// Runs `intent` in process with captured output, a temporary data directory and test grammars.
final class CommandHarness: Sendable {
  let folder: TemporaryDirectory
  let grammars: URL
  private let out = Mutex("")
  private let err = Mutex("")

  init(extraWeatherKeywords: [String] = []) throws {
    folder = try TemporaryDirectory()
    grammars = try TestGrammars.write(to: folder.url, extraWeatherKeywords: extraWeatherKeywords)
  }

  var dataDirectory: URL { folder.url.appendingPathComponent("data") }
  var stdout: String { out.withLock { $0 } }
  var stderr: String { err.withLock { $0 } }

  /// Runs one command line with the test grammars, or `grammars`, when the command takes them.
  func run(
    _ arguments: [String], environment extra: [String: String] = [:], grammars: URL? = nil,
    builtins: Bool = false
  ) async -> Int32 {
    out.withLock { $0 = "" }
    err.withLock { $0 = "" }
    var environment = [
      "INTENT_DATA_DIR": dataDirectory.path, "TZ": "Asia/Shanghai", "HOME": folder.url.path,
    ]
    environment.merge(extra) { $1 }
    let io = CommandIO(
      readInput: { Data() }, write: { text in self.append(text, toError: false) },
      writeError: { text in self.append(text, toError: true) }, environment: environment,
      currentDirectory: folder.url)
    var full = arguments
    if !builtins, ["run", "replay"].contains(arguments.first) {
      full.insert(
        contentsOf: ["--no-builtin", "--grammars", (grammars ?? self.grammars).path], at: 1)
    }
    return await IntentCommand.run(full, io: io)
  }

  private func append(_ text: String, toError: Bool) {
    if toError {
      err.withLock { $0 += text }
    } else {
      out.withLock { $0 += text }
    }
  }

  /// Standard output parsed as JSON.
  var json: [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
  }
}

struct RunCommandTests {
  let now = "2026-11-30T09:00:00+08:00"

  @Test func runCreatesARealTimerThatTimersThenLists() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let status = await cli.run(["run", "--json", "--route", "local", "--now", now, "3分钟后提醒我关火"])
    #expect(status == 0, "\(cli.stderr)")
    let json = try #require(cli.json)
    #expect(json["route"] as? String == "local")
    #expect(json["stale"] as? Bool == false)
    #expect(json["error"] is NSNull)
    let result = try #require(json["result"] as? [String: Any])
    #expect(result["label"] as? String == "关火")
    #expect(result["duration"] as? Double == 180)
    #expect(result["fire_date"] as? String == "2026-11-30T09:03:00+08:00")
    #expect(result["id"] as? Double == 1)

    #expect(await cli.run(["timers", "--now", "2026-11-30T09:01:00+08:00"]) == 0)
    #expect(cli.stdout == "#1  关火  2 min left  (fires 2026-11-30 09:03:00)\n")
    #expect(await cli.run(["timers", "--json", "--now", "2026-11-30T09:01:30+08:00"]) == 0)
    let timers = try #require(cli.json?["timers"] as? [[String: Any]])
    #expect(timers.first?["remaining_seconds"] as? Double == 90)
  }

  @Test func cancelsANamedTimerTheLatestOrAll() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    for text in ["3分钟后提醒我煮鸡蛋", "5分钟后提醒我关火", "10分钟后提醒我泡茶"] {
      #expect(await cli.run(["run", "--now", now, text]) == 0)
    }
    #expect(await cli.run(["run", "--now", now, "取消煮鸡蛋的计时"]) == 0)
    #expect(cli.stdout.contains("已取消计时器：煮鸡蛋"))
    #expect(await cli.run(["run", "--now", now, "取消计时"]) == 0)
    #expect(cli.stdout.contains("已取消计时器：泡茶"))
    #expect(await cli.run(["timers", "--now", now]) == 0)
    #expect(cli.stdout == "#2  关火  5 min left  (fires 2026-11-30 09:05:00)\n")
  }

  @Test func aClauseWhoseSkillFailsSaysWhyAndTheOtherClauseStillRuns() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let status = await cli.run(["run", "--json", "--now", now, "看看天气顺便10分钟后提醒我关火"])
    #expect(status == 1)
    let clauses = try #require(cli.json?["clauses"] as? [[String: Any]])
    #expect(clauses.count == 2)
    #expect(
      (clauses[0]["error"] as? String)?.hasPrefix(
        "no place was named and INTENT_HOME_LOCATION is not set") == true)
    #expect((clauses[1]["result"] as? [String: Any])?["label"] as? String == "关火")
    #expect(await cli.run(["timers", "--now", now]) == 0)
    #expect(cli.stdout.contains("关火  10 min left"))
  }

  @Test func notUnderstoodExitsZeroAndSaysWhatCanBeDone() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run(["run", "今天吃什么"]) == 0)
    #expect(
      cli.stdout.contains(
        "route         unmatched (no intent matched; no cloud model is configured)"))
    #expect(cli.stdout.contains("can do        timer.start (start a countdown timer)"))
  }

  @Test func cloudRouteWithoutAModelSaysSo() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run(["run", "--route", "cloud", "3分钟后提醒我关火"]) == 1)
    #expect(
      cli.stderr
        == "error: no cloud model is configured; set INTENT_LLM_BASE_URL and INTENT_LLM_MODEL, or use '--route local'\n"
    )
  }

  @Test func badRouteValuesAreUsageErrors() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run(["run", "--route", "sky", "x"]) == 2)
    #expect(
      cli.stderr.hasPrefix("error: '--route' must be 'auto', 'local' or 'cloud', not 'sky'\n"))
    #expect(await cli.run(["run", "x"], environment: ["INTENT_ROUTE": "wifi"]) == 2)
    #expect(
      cli.stderr.hasPrefix("error: INTENT_ROUTE must be 'auto', 'local' or 'cloud', not 'wifi'\n"))
  }

  @Test func corruptTimerStoreIsReportedAndSetAside() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    try FileManager.default.createDirectory(
      at: cli.dataDirectory, withIntermediateDirectories: true)
    try Data("{{{".utf8).write(to: cli.dataDirectory.appendingPathComponent("timers.json"))
    #expect(await cli.run(["run", "--now", now, "3分钟后提醒我关火"]) == 0)
    #expect(cli.stderr.contains("warning: timer store"))
    #expect(cli.stderr.contains("is corrupt; moved it to"))
    let names = try FileManager.default.contentsOfDirectory(atPath: cli.dataDirectory.path)
    #expect(names.contains { $0.hasPrefix("timers.json.corrupt-") })
  }
}
