import Foundation
import Testing

@testable import IntentEngine

/// Plain English grammar words skip the normaliser; the result must be what it would return.
struct GrammarWordTests {
  @Test func fastPathAgreesWithTheNormaliserOnEveryBuiltInWord() throws {
    let engine = try Engine.load()
    let normalizer = Normalizer()
    var checked = 0
    for entry in 0..<engine.grammar.lexicon.count {
      let word = engine.grammar.lexicon.word(Int32(entry))
      guard let fast = GrammarCompiler.plainLatinWord(word) else { continue }
      #expect(fast == normalizer.normalize(word).scalars, "\(word)")
      checked += 1
    }
    #expect(checked > 100)
  }

  @Test(arguments: ["ten minutes", "an hour", "timer!", "two", "half past", "xi'an"])
  func wordsTheNormaliserChangesTakeTheSlowPath(_ word: String) {
    #expect(GrammarCompiler.plainLatinWord(word) == nil)
  }
}
