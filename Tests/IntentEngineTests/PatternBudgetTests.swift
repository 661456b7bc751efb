import Foundation
import Testing
import TestSupport

@testable import IntentEngine

/// Wide user patterns cost bounded work: refused at load past a limit, and one step budget per
/// parse below it.
struct PatternBudgetTests {
  /// Nine choices between a one-letter list item and a number, each followed by free text: 512
  /// sequences that no cheap test rules out.
  static let widePattern = Array(repeating: "(@s|{n}) *", count: 9).joined(separator: " ")

  static func grammar(intents: Int, patternsEach: Int, marker: Int? = nil) -> String {
    var lines = ["list s: " + "abcdefghijklmnopqrstuvwxyz".map(String.init).joined(separator: ", ")]
    for intent in 0..<intents {
      lines += ["intent wide.i\(intent)", "  slot n: number", "  keywords k (weight 2): a, b, c"]
      for index in 0..<patternsEach {
        lines.append("  pattern: " + (index == marker ? "1️⃣" : "") + Self.widePattern)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func intentWhosePatternsExpandTooFarIsRefusedAtLoad() {
    // Four patterns reach the limit exactly; the fifth passes it.
    #expect(Pattern.intentExpansionLimit == 4 * 512)
    let grammar = MarkedText(Self.grammar(intents: 1, patternsEach: 200, marker: 4))
    let errors = GrammarCompiler().diagnose(grammar.text, path: "t.grammar", language: "en")
      .filter { $0.severity == .error }.map(\.description)
    #expect(
      errors == [
        "t.grammar:\(grammar["1️⃣"]): error: patterns of intent 'wide.i0' expand to more than 2048 alternatives in all; merge patterns or use fewer optional parts"
      ])
  }

  @Test func parseOfWidePatternsStopsWhenItsOneBudgetIsSpent() throws {
    let compiled = GrammarCompiler().compile(
      [
        GrammarSource(
          path: "t.grammar", language: "en", text: Self.grammar(intents: 5, patternsEach: 4))
      ], extraWords: [])
    let engine = Engine(grammar: try compiled.get(), gazetteer: try Gazetteer.builtin())
    let budget = MatchBudget()
    let result = engine.parse("a b c d e 1 2 3 x y", context: ParseContext(), budget: budget)
    #expect((0...1).contains(result.confidence))
    // Each sequence could take its own 4,000 steps: 5 × 2,048 sequences would be 40 million.
    #expect(budget.remaining <= 0)
    let next = MatchBudget()
    _ = engine.parse("c d e 4 5 6 x y z", context: ParseContext(), budget: next)
    #expect(next.remaining <= 0, "a new parse starts with a budget of its own")
  }

  /// The lines of the fixtures that take the most matching steps with the built-in grammars.
  static let costliestFixtureLines = [
    "Could you please set a timer for 45 minutes? The students are doing a group exercise and I need to know when to pull them back.",
    "ok so the baby just went down for her nap and i wanna shower real quick, can you set a timer for 12 minutes so i dont lose track",
    "Hello Google, this is Margaret. Please remind me tomorrow afternoon to ring my sister Joan. Thank you.",
  ]

  @Test(arguments: costliestFixtureLines)
  func builtInGrammarsLeaveMostOfTheBudget(_ text: String) throws {
    let engine = try Engine.load()
    let budget = MatchBudget()
    _ = engine.parse(text, context: ParseContext(), budget: budget)
    #expect(MatchBudget.perParse - budget.remaining < MatchBudget.perParse / 10)
  }
}
