import Foundation
import IntentEngine
import TestSupport
import Testing

struct GrammarLoaderTests {
  static let grammar = """
    intent lights.on
      description: turn the lights on
      keywords lights: lights, lamp
      example: turn the lights on
    """

  @Test func folderWithoutAnyGrammarFileIsAWarning() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try "notes".write(
      to: folder.url.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
    let loaded = try GrammarLoader.load(roots: [(folder.url, "mine")])
    #expect(loaded.sources.isEmpty)
    #expect(
      loaded.warnings.map(\.description) == [
        "mine:1:1: warning: folder holds no '.grammar' file, so no intent is loaded from it; check the path"
      ])
  }

  @Test func nearMissExtensionIsAWarningNamingTheFix() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try Self.grammar.write(
      to: folder.url.appendingPathComponent("light.gramar"), atomically: true, encoding: .utf8)
    let engine = try Engine.load(userGrammars: [folder.url], includeBuiltins: false)
    let warnings = engine.grammar.warnings.map(\.description)
    #expect(
      warnings.contains(
        "\(folder.url.path)/light.gramar:1:1: warning: file 'light.gramar' is not read: only '.grammar' files are; rename it 'light.grammar'"
      ))
    #expect(warnings.contains { $0.contains("folder holds no '.grammar' file") })
  }

  @Test func properlyNamedGrammarGivesNoLoaderWarning() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try Self.grammar.write(
      to: folder.url.appendingPathComponent("light.grammar"), atomically: true, encoding: .utf8)
    try "x".write(
      to: folder.url.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let loaded = try GrammarLoader.load(roots: [(folder.url, "mine")])
    #expect(loaded.sources.map(\.path) == ["mine/light.grammar"])
    #expect(loaded.warnings.isEmpty)
  }

  @Test func aGrammarFileOverTheSizeLimitIsRefusedBeforeItIsRead() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    // A valid grammar padded with comment lines to one byte over the limit.
    var text = Self.grammar + "\n"
    let comment = "# " + String(repeating: "x", count: 97) + "\n"
    while text.utf8.count + comment.utf8.count <= GrammarLoader.maximumFileBytes {
      text += comment
    }
    text += String(repeating: "#", count: GrammarLoader.maximumFileBytes + 1 - text.utf8.count)
    #expect(text.utf8.count == GrammarLoader.maximumFileBytes + 1)
    try text.write(
      to: folder.url.appendingPathComponent("big.grammar"), atomically: true, encoding: .utf8)
    do {
      _ = try GrammarLoader.load(roots: [(folder.url, "mine")])
      Issue.record("a grammar file over the limit must fail the load")
    } catch {
      #expect(
        error.diagnostics.map(\.description) == [
          "mine/big.grammar:1:1: error: file is 1048577 bytes; a grammar file holds at most 1048576; split it into several '.grammar' files"
        ])
    }
  }

  @Test func noteFollowsTheErrorItBelongsToAcrossFiles() {
    let first = GrammarSource(path: "a.grammar", language: "en", text: Self.grammar)
    let second = GrammarSource(path: "b.grammar", language: "en", text: Self.grammar)
    let list = GrammarSource(
      path: "0.grammar", language: "en",
      text: "intent other.thing\n  keywords x: zebra\n  slot a: datatime\n")
    guard
      case .failure(let error) = GrammarCompiler().compile(
        [list, first, second], extraWords: [])
    else {
      Issue.record("duplicate intents must fail the load")
      return
    }
    let lines = error.diagnostics.map(\.description)
    guard let duplicate = lines.firstIndex(where: { $0.contains("'lights.on' is already defined") })
    else {
      Issue.record("no duplicate-intent error in \(lines)")
      return
    }
    #expect(lines[duplicate].hasPrefix("b.grammar:1:"))
    #expect(lines.dropFirst(duplicate + 1).first == "a.grammar:1:8: note: first definition is here")
  }
}
