import Foundation
import IntentEngine
import TestSupport
import Testing

@testable import intent

/// Conventions every command shares, as swift-argument-parser tools behave.
struct CommandConventionsTests {
  typealias Run = ParseCommandTests.Run

  static func run(_ arguments: [String]) async -> Run {
    await ParseCommandTests.run(arguments)
  }

  @Test(arguments: [["--version"], ["version"]])
  func versionPrintsOneLine(_ arguments: [String]) async {
    let run = await Self.run(arguments)
    #expect(run.code == 0)
    #expect(run.output.text == "intent \(IntentCommand.version)\n")
    #expect(run.errors.text.isEmpty)
  }

  @Test(arguments: IntentCommand.commands.map(\.name))
  func helpForACommandPrintsThatCommandsUsage(_ command: String) async {
    let viaHelp = await Self.run(["help", command])
    let viaFlag = await Self.run([command, "--help"])
    #expect(viaHelp.code == 0)
    #expect(viaFlag.code == 0)
    #expect(viaHelp.output.text.hasPrefix("Usage: intent \(command)"))
    #expect(viaFlag.output.text == viaHelp.output.text)
  }

  @Test func helpForAnUnknownCommandSuggestsOne() async {
    let run = await Self.run(["help", "pars"])
    #expect(run.code == 2)
    #expect(run.errors.text.hasPrefix("error: unknown command 'pars'; did you mean 'parse'?"))
  }

  @Test func usageErrorPrintsTheUsageOfItsCommand() async {
    let run = await Self.run(["parse", "--jsn", "天气"])
    #expect(run.code == 2)
    let lines = run.errors.lines
    #expect(lines.first == "error: unknown option '--jsn'; did you mean '--json'?")
    #expect(lines.dropFirst().first?.hasPrefix("Usage: intent parse ") == true)
    #expect(lines.last == "  See 'intent parse --help' for more information.")
    #expect(!run.errors.text.contains("Commands:"))

    let bench = await Self.run(["bench", "--split", "train"])
    #expect(bench.errors.lines.dropFirst().first?.hasPrefix("Usage: intent bench ") == true)
  }

  @Test func flagGivenAValueSaysItTakesNone() async {
    let run = await Self.run(["parse", "--json=yes", "天气"])
    #expect(run.code == 2)
    #expect(
      run.errors.lines.first
        == "error: option '--json' takes no value; write '--json', not '--json=yes'")
  }

  @Test func checkOfAMissingFolderNamesTheArgument() async {
    let run = await Self.run(["check", "/nonexistent"])
    #expect(run.code == 2)
    #expect(
      run.errors.lines.first
        == "error: no such grammar folder '/nonexistent'; check the '<dir>' argument")
    #expect(!run.errors.text.contains("--grammars"))
  }

  @Test func checkOfAFolderWithoutGrammarsWarns() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try "intent lights.on\n  keywords x: lamp\n".write(
      to: folder.url.appendingPathComponent("light.gramar"), atomically: true, encoding: .utf8)
    let run = await Self.run(["check", "--quiet", folder.url.path])
    #expect(run.code == 0)
    #expect(
      run.errors.lines.contains(
        "\(folder.url.path)/light.gramar:1:1: warning: file 'light.gramar' is not read: only '.grammar' files are; rename it 'light.grammar'"
      ))
    #expect(
      run.errors.text.contains("\(folder.url.path):1:1: warning: folder holds no '.grammar' file"))
  }

  @Test func latencyNamesTheBuildItWasMeasuredOn() async throws {
    let scratch = try BenchScratch()
    let text = await scratch.run(["bench", "--no-thresholds"])
    #expect(text.code == 0, "\(text.stderr)")
    #if DEBUG
      #expect(text.stdout.contains("debug build: build with 'swift build -c release'"))
    #else
      #expect(!text.stdout.contains("debug build"))
    #endif
    let json = await scratch.run(["bench", "--json", "--no-thresholds"])
    let report = try JSONValue(parsing: Data(json.stdout.utf8))
    #expect(report["latency"]?["build"]?.stringValue == LatencySummary.currentBuild)
  }

  @Test func sha256MatchesTheStandardsVectors() {
    #expect(
      SHA256.hexDigest(of: Array("".utf8))
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hexDigest(of: Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hexDigest(
        of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}
