import Foundation
import Testing

@testable import IntentEngine

/// Chinese typed by sound: a keyword written as its homophone ("剃醒" for "提醒") is read as the
/// keyword, and characters that mean something else are left as typed.
struct HomophoneTests {
  static let engine: Engine? = try? Engine.load()
  static let context = EngineBehaviourTests.context

  @Test func readingsMakeHomophonesAlike() {
    let readings = MandarinReadings.builtin
    #expect(readings.syllableCount > 400)
    #expect(readings.syllable(of: "剃") != 0)
    #expect(readings.syllable(of: "剃") == readings.syllable(of: "提"))
    #expect(readings.syllable(of: "新") == readings.syllable(of: "心"))
    #expect(readings.syllable(of: "提") != readings.syllable(of: "醒"))
    #expect(readings.syllable(of: "a") == 0)
    #expect(readings.syllable(of: "😀") == 0)
  }

  @Test func malformedReadingLinesAreSkipped() {
    let readings = MandarinReadings(parsing: "# comment\nti 提剃\nnospace\n 醒\nxing 醒星\nti 星\n")
    #expect(readings.syllableCount == 3)
    #expect(readings.syllable(of: "提") == readings.syllable(of: "剃"))
    #expect(readings.syllable(of: "醒") == readings.syllable(of: "星"))
    #expect(readings.syllable(of: "提") != readings.syllable(of: "星"))
  }

  @Test func commonWordsAreKnown() {
    let words = MandarinWords.builtin
    #expect(words.count > 10_000)
    #expect(words.contains(Array("钓鱼".unicodeScalars)))
    #expect(words.contains(Array("水面".unicodeScalars)))
    #expect(!words.contains(Array("剃醒".unicodeScalars)))
    #expect(!words.contains(Array("钓".unicodeScalars)))
  }

  @Test(
    arguments: [
      ("剃醒我下午三点给房东转账", "reminder.create", "datetime", "2026-11-30T15:00:00+08:00"),
      ("机时器十分钟", "timer.start", "duration", "600"),
      ("我的新率是多少", "health.query", "metric", "heart_rate"),
      ("今天布数多少", "health.query", "metric", "steps"),
      ("明天会不会下与", "weather.query", "date", "2026-12-01"),
      ("计时器暂亭", "timer.pause", nil, nil),
      // A whole sentence of the intent's shape backs a slip that has no value beside it.
      ("题醒我去交水费", "reminder.create", "text", "去交水费"),
      ("麻烦开个机时器", "timer.start", nil, nil),
    ] as [(String, String, String?, String?)])
  func homophoneOfAKeywordIsTheKeyword(
    _ text: String, _ intent: String, _ slot: String?, _ value: String?
  ) throws {
    let engine = try #require(Self.engine)
    let result = engine.parse(text, context: Self.context)
    #expect(result.intent == IntentID(intent), "\(result.explanation.map(\.detail))")
    #expect(result.route == .local)
    if let slot {
      let filled = result.slot(slot)
      #expect((filled?.stringValue ?? filled?.jsonText) == value)
    }
  }

  @Test func theExplanationQuotesWhatWasTyped() throws {
    let engine = try #require(Self.engine)
    let result = engine.parse("剃醒我下午三点给房东转账", context: Self.context)
    #expect(result.normalizedText.hasPrefix("提醒我"))
    #expect(result.explanation.contains { $0.detail.contains("(spelt '剃醒我')") })
    // The task keeps the user's words.
    #expect(result.slot("text")?.stringValue == "给房东转账")
  }

  @Test(arguments: [
    // A place and a time word hold their characters ("天上" in "明天上海" is no "添上").
    "明天上海下雨吗",
    // Common words: "水面" is no "睡眠", "去掉" would cut "钓鱼"; "待着" shares no character with
    // "带遮".
    "湖水面上有只鸭子", "周末我们去钓鱼吧", "还是在家待着吧",
    // Nothing in common with the keyword: "水的" is not "睡得"; a particle alone is not enough.
    "给我来个忘情水的歌", "早上六点就醒了",
  ])
  func charactersThatMeanSomethingElseStayAsTyped(_ text: String) throws {
    let engine = try #require(Self.engine)
    let normalized = engine.normalize(text)
    #expect(normalized.respelt.isEmpty)
    #expect(normalized.string == Normalizer().normalize(text).string)
  }

  @Test func aHomophoneAloneMakesNoCommand() throws {
    let engine = try #require(Self.engine)
    let result = engine.parse("天汽", context: Self.context)
    #expect(engine.normalize("天汽").string == "天气")
    #expect(result.intent == nil)
  }

  @Test func aUserGrammarsKeywordsAreReadBySoundToo() throws {
    let source = GrammarSource(
      path: "home.grammar", language: "zh",
      text: """
        intent home.curtain
          description: 拉开或拉上窗帘
          keywords curtain (weight 2.5, required): 窗帘
          keywords pull (weight 1): 拉上, 拉开, 打开, 关上

        """, folder: "u")
    let grammar = try GrammarCompiler().compile([source], extraWords: []).get()
    let engine = Engine(grammar: grammar, gazetteer: Gazetteer())
    #expect(engine.normalize("把窗连拉上").string == "把窗帘拉上")
    #expect(engine.parse("把窗连拉上").intent == IntentID("home.curtain"))
  }
}
