import Foundation
import TestSupport
import Testing

@testable import intent

/// The configured API key typed into an utterance is stored and printed as `[redacted]`.
struct KeyRedactionTests {
  static let key = "sk-test-0123456789abcdef"

  @Test func keyInTheUtteranceReachesNoTraceLabelOrOutput() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let trace = cli.folder.url.appendingPathComponent("trace.jsonl")
    let environment = ["INTENT_LLM_API_KEY": Self.key]
    let status = await cli.run(
      [
        "run", "--route", "local", "--trace", trace.path, "--now", "2026-11-30T09:00:00+08:00",
        "三分钟后提醒我关火 \(Self.key)",
      ], environment: environment)
    #expect(status == 0, "\(cli.stderr)")
    #expect(!cli.stdout.contains(Self.key) && !cli.stderr.contains(Self.key))
    let traced = try String(contentsOf: trace, encoding: .utf8)
    #expect(!traced.contains(Self.key))
    #expect(traced.contains("[redacted]"))
    #expect(await cli.run(["timers", "--json"], environment: environment) == 0)
    #expect(!cli.stdout.contains(Self.key))
    var stored = ""
    let files = FileManager.default.enumerator(
      at: cli.dataDirectory, includingPropertiesForKeys: nil)
    while let url = files?.nextObject() as? URL {
      stored += (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }
    #expect(!stored.isEmpty)
    #expect(!stored.contains(Self.key))
  }
}
