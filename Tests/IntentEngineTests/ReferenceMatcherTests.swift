import Foundation
import Testing
import TestSupport

@testable import IntentEngine

/// The trie-based keyword search agrees with a naive scan of every lexicon word.
struct ReferenceMatcherTests {
  static let engine: Engine? = try? Engine.load()

  /// Every (start, end, entry) the naive scan finds at the same word starts the engine uses.
  static func naiveHits(_ analysis: Analysis, grammar: CompiledGrammar) -> Set<[Int]> {
    let scalars = analysis.text.scalars
    var starts = Set(analysis.tokens.filter { $0.kind != .symbol }.map(\.range.lowerBound))
    for i in scalars.indices where i > 0 && scalars[i - 1] == " " && scalars[i] != " " {
      starts.insert(i)
    }
    var found = Set<[Int]>()
    for entry in 0..<grammar.lexicon.count where entry < grammar.targets.count {
      guard !grammar.targets[entry].isEmpty else { continue }
      let word = Array(grammar.lexicon.word(Int32(entry)).unicodeScalars)
      for start in starts where start + word.count <= scalars.count {
        guard Array(scalars[start..<(start + word.count)]) == word else { continue }
        let end = start + word.count
        guard analysis.boundaries[end] else { continue }
        if end < scalars.count, Scorer.isASCIIWord(scalars[end - 1]),
          Scorer.isASCIIWord(scalars[end])
        {
          continue
        }
        found.insert([start, end, entry])
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
