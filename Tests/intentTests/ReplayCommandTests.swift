import Foundation
import TestSupport
import Testing

@testable import intent

struct ReplayCommandTests {
  @Test func replaysARecordedTraceAndShowsWhatAGrammarChangeDecides() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let trace = cli.folder.url.appendingPathComponent("trace.jsonl").path
    for text in ["3分钟后提醒我关火", "明天会下雨吗"] {
      #expect(
        await cli.run([
          "run", "--route", "local", "--trace", trace, "--now", "2026-11-30T09:00:00+08:00", text,
        ]) == 0)
    }
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].contains(#""route":"local""#))
    #expect(lines[0].contains(#""skill":"Start timer""#))

    #expect(await cli.run(["replay", trace]) == 0)
    #expect(cli.stdout == "replayed 2 utterances: 0 changed\n")

    let changed = try TestGrammars.write(to: cli.folder.url, extraWeatherKeywords: ["下雨"])
    #expect(await cli.run(["replay", trace], grammars: changed) == 0)
    #expect(
      cli.stdout.contains(
        "line 2: '明天会下雨吗'\n  intent: none → weather.query\n  route: unmatched → local\n"))
    #expect(cli.stdout.hasSuffix("replayed 2 utterances: 1 changed\n"))
  }

  @Test func missingTraceFileIsAFailure() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run(["replay", "nope.jsonl"]) == 1)
    #expect(cli.stderr == "error: cannot read trace file 'nope.jsonl'; check the path\n")
    #expect(await cli.run(["replay"]) == 2)
  }
}
