import Foundation
import IntentEngine
import TestSupport
import Testing

@testable import intent

/// Control characters in what the user typed are printed as escapes, never raw.
struct TerminalTextTests {
  /// Clears the screen and retitles the window when printed raw.
  static let hostile = "三分钟后提醒我\u{1B}[2J\u{1B}]0;PWNED\u{07}关火"
  static let now = ["--now", "2026-11-30T09:00:00+08:00"]

  static func isRaw(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
    }
  }

  @Test(arguments: [
    ("a\u{1B}[31mb", "a\\u{1B}[31mb"), ("\u{07}\u{7F}\u{9B}", "\\u{7}\\u{7F}\\u{9B}"),
    ("line\nnext\ttab", "line\nnext\\u{9}tab"), ("干净的 text ü", "干净的 text ü"),
  ])
  func controlCharactersAreWrittenAsEscapes(_ raw: String, _ shown: String) {
    #expect(TerminalText.escaped(raw) == shown)
  }

  @Test func runTimersAndReplayPrintNoRawControlCharacters() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let trace = cli.folder.url.appendingPathComponent("trace.jsonl").path
    #expect(
      await cli.run(["run", "--route", "local", "--trace", trace] + Self.now + [Self.hostile]) == 0)
    #expect(!Self.isRaw(cli.stdout) && !Self.isRaw(cli.stderr))
    #expect(cli.stdout.contains("\\u{1B}[2J\\u{1B}]0;PWNED\\u{7}"))
    #expect(await cli.run(["timers"] + Self.now) == 0)
    #expect(!Self.isRaw(cli.stdout))
    #expect(cli.stdout.contains("\\u{1B}"))
    #expect(await cli.run(["replay", "--all", trace]) == 0)
    #expect(!Self.isRaw(cli.stdout))
    #expect(cli.stdout.contains("\\u{1B}"))
  }

  @Test func humanParsePrintsEscapesAndJSONKeepsTheText() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    #expect(await cli.run(["parse"] + Self.now + [Self.hostile]) == 0)
    #expect(!Self.isRaw(cli.stdout))
    #expect(cli.stdout.hasPrefix("三分钟后提醒我\\u{1B}[2J"))
    #expect(await cli.run(["parse", "--json"] + Self.now + [Self.hostile + "\u{9B}"]) == 0)
    #expect(!Self.isRaw(cli.stdout))
    let object = try JSONValue(parsing: Data(cli.stdout.utf8))
    #expect(object["text"]?.stringValue == Self.hostile + "\u{9B}")
  }
}
