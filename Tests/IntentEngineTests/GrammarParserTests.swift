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
}
