import Testing

@testable import IntentEngine

struct GrammarParserTests {
  @Test func keywordsKeepInnerSpacesAndEscapedHashesAndTheirColumns() {
    var parser = GrammarParser(path: "t.grammar", language: "en")
    let file = parser.parse(
      """
      intent memo.create
        keywords note (weight 2): take  a note ,channel \\#5，记一下、 @lists
      """)
    let items = file.intents.first?.groups.first?.items ?? []
    #expect(items.map(\.text) == ["take  a note", "channel #5", "记一下", "@lists"])
    #expect(items.map(\.position.column) == [29, 43, 55, 60])
    #expect(parser.diagnostics.isEmpty)
  }

  @Test func headersAndOptionsOutsideASCIIAreReadAsCharacters() {
    var parser = GrammarParser(path: "t.grammar", language: "zh")
    let file = parser.parse(
      """
      intent memo.create
        keywords 记下 (weight 2, required):记一下, 备忘
        keywords note (weight 1.5):提醒
        exclude (penalty 2, statement): 不要
      """)
    let groups = file.intents.first?.groups ?? []
    #expect(groups.map(\.name) == ["记下", "note"])
    #expect(groups.map(\.weight) == [2, 1.5])
    #expect(groups.map(\.isRequired) == [true, false])
    #expect(groups.map { $0.items.map(\.text) } == [["记一下", "备忘"], ["提醒"]])
    #expect(groups.map { $0.items.map(\.position.column) } == [[36, 41], [30]])
    let exclude = file.intents.first?.excludes.first
    #expect(exclude?.penalty == 2)
    #expect(exclude?.flags == [.statement])
    #expect(parser.diagnostics.isEmpty)
  }

  @Test func aMisplacedOptionIsReportedAtItsColumn() {
    var parser = GrammarParser(path: "t.grammar", language: "en")
    _ = parser.parse(
      """
      intent memo.create
        keywords note (weight 2, requird): note
      """)
    #expect(
      parser.diagnostics.map(\.description) == [
        "t.grammar:2:28: error: unknown option 'requird'; did you mean 'required'?"
      ])
  }
}
