import Foundation
import Testing
import TestSupport

@testable import IntentEngine

/// The trie-based keyword search agrees with a naive scan of every lexicon word.
struct ReferenceMatcherTests {
  static let engine: Engine? = try? Engine.load()

  /// Every (start, end, entry) a naive scan of every lexicon word finds under the same rules: from a
  /// token's start to any boundary or inside the token; a suffix of a CJK lexicon token; from a
  /// word start inside a multi-word token to a boundary.
  static func naiveHits(_ analysis: Analysis, grammar: CompiledGrammar) -> Set<[Int]> {
    let scalars = analysis.text.scalars
    func isWord(_ s: Unicode.Scalar) -> Bool { Scorer.isASCIIWord(s) }
    var found = Set<[Int]>()
    for entry in 0..<grammar.lexicon.count where entry < grammar.targets.count {
      guard !grammar.targets[entry].isEmpty else { continue }
      let word = Array(grammar.lexicon.word(Int32(entry)).unicodeScalars)
      for token in analysis.tokens where token.kind != .symbol {
        let lower = token.range.lowerBound
        let upper = token.range.upperBound
        for start in lower..<upper {
          let end = start + word.count
          guard end <= scalars.count, Array(scalars[start..<end]) == word else { continue }
          let latinTail = end < scalars.count && isWord(scalars[end - 1]) && isWord(scalars[end])
          if start == lower {
            if (analysis.boundaries[end] || (end < upper && word.count >= 2)) && !latinTail {
              found.insert([start, end, entry])
            }
          } else if token.kind == .lexicon, scalars[start] != " " {
            if scalars[start - 1] == " " {
              if analysis.boundaries[end] && !latinTail { found.insert([start, end, entry]) }
            } else if !isWord(scalars[start]), end == upper, word.count >= 2 {
              found.insert([start, end, entry])
            }
          }
        }
      }
    }
    return found
  }

  static func utterances() throws -> [String] {
    var texts = [
      "turn off the timer and then remind me", "明天杭州会不会下雨", "把鸡蛋加到购物清单",
      "set a timer for ten minutes", "记一下车停在B2层然后十分钟后提醒我",
    ]
    var generator = SeededGenerator(seed: 42)
    let pieces = ["提醒我", "天气", "timer", "cancel", " ", "明天", "and", "步数", "note", "计时器", "的", "x"]
    for _ in 0..<300 {
      let count = Int.random(in: 1...8, using: &generator)
      texts.append((0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined())
    }
    return texts
  }

  @Test func trieSearchFindsExactlyWhatANaiveScanFinds() throws {
    let engine = try #require(Self.engine)
    for text in try Self.utterances() {
      let normalized = engine.normalizer.normalize(text)
      let tokens = engine.tokenizer.tokens(in: normalized)
      let analysis = engine.scorer.analyse(normalized, tokens: tokens, entities: [])
      let fast = Set(
        analysis.hits.filter { !$0.isCorrected }.map {
          [$0.range.lowerBound, $0.range.upperBound, Int($0.entry)]
        })
      #expect(fast == Self.naiveHits(analysis, grammar: engine.grammar), "\(text)")
    }
  }
}
