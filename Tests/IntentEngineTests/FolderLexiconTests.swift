import Foundation
import Testing
import TestSupport

@testable import IntentEngine

/// A word of one grammar folder never hides a keyword of another.
struct FolderLexiconTests {
  /// A user grammar whose keyword "灯" sits inside built-in words ("开灯", "关灯", "台灯").
  static let lightGrammar = """
    intent home.light
      description: 开关家里的灯
      slot text: text
      keywords light (weight 2.5, required): 灯
      keywords switch (weight 1): 开, 打开, 关, 关掉
      pattern: (开|打开|关|关掉) [客厅] [的] 灯
      pattern: 把 [{text}] [的] 灯 (打开|关掉)

    """

  static let engine: Engine? = {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("folder-lexicon-\(UUID().uuidString)", isDirectory: true)
    let zh = root.appendingPathComponent("zh", isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: zh, withIntermediateDirectories: true)
      try Data(lightGrammar.utf8).write(to: zh.appendingPathComponent("home.grammar"))
      return try Engine.load(userGrammars: [root])
    } catch {
      return nil
    }
  }()

  @Test(arguments: ["开灯", "关灯", "把客厅的灯打开", "帮我开一下灯"])
  func userKeywordMatchesInsideABuiltinWord(_ text: String) throws {
    let engine = try #require(Self.engine)
    let result = engine.parse(text)
    #expect(result.intent == IntentID("home.light"))
    #expect(result.route == .local)
  }

  @Test func builtinWordsStillSegmentTheWholeText() throws {
    // "开灯" stays one token: only the user's keywords are also read where the user's words split.
    let engine = try #require(Self.engine)
    let scalars = Array("开灯".unicodeScalars)
    let tokens = Tokenizer(lexicon: engine.grammar.lexicon).tokens(in: scalars)
    #expect(tokens.map(\.range) == [0..<2])
  }

  @Test(arguments: [
    ("十分钟后提醒我", "timer.start"), ("明天杭州会不会下雨", "weather.query"),
    ("取消计时器", "timer.cancel"),
  ])
  func builtinSentencesKeepTheirIntentNextToAUserGrammar(_ text: String, _ intent: String) throws {
    let engine = try #require(Self.engine)
    #expect(engine.parse(text).intent == IntentID(intent))
  }

  @Test func builtinsAloneMakeNoFolderLexicons() throws {
    // One folder segments the text by its own words already: parses cost nothing more.
    let engine = try Engine.load()
    #expect(engine.grammar.folderLexicons.isEmpty)
  }

  /// "开灯" is the user's own word too (a pattern names it), so only "台灯" is reported.
  @Test func patternKeywordInsideAnotherFolderWordIsReportedWhereItIsWritten() throws {
    let builtin = GrammarSource(
      path: "Grammars/zh/lists.grammar", language: "zh",
      text: """
        list devices: 台灯, 开灯
        intent other.thing
          description: something else
          keywords k (weight 2): 东西
          exclude: @devices

        """, folder: "Grammars")
    let user = MarkedText(
      """
      intent home.light
        description: lights
        slot text: text
        keywords light (weight 2.5, required): 灯
        pattern: 把 [{text}] [的] 1️⃣灯 打开
        pattern: 开灯

      """)
    let sources = [
      builtin, GrammarSource(path: "home.grammar", language: "zh", text: user.text, folder: "u"),
    ]
    let grammar = try GrammarCompiler().compile(sources, extraWords: []).get()
    #expect(
      grammar.warnings.map(\.description) == [
        "home.grammar:\(user["1️⃣"]): warning: pattern word '灯' is inside 'Grammars' word '台灯', which stays whole when text is split; a slot or free text that meets '灯' there does not match; add a pattern that names '台灯'"
      ])
  }
}
