import IntentEngine
import TestSupport
import Testing

struct ScalarTrieTests {
  @Test func insertIfAbsentKeepsTheFirstValue() {
    var trie = ScalarTrie<Int>()
    #expect(trie.insertIfAbsent("苏州".unicodeScalars, value: 1) == nil)
    #expect(trie.insertIfAbsent("苏州".unicodeScalars, value: 2) == 1)
    #expect(trie.insertIfAbsent("苏".unicodeScalars, value: 3) == nil)
    #expect(trie.insertIfAbsent("".unicodeScalars, value: 4) == nil)
    #expect(trie.value(for: "苏州".unicodeScalars) == 1)
    #expect(trie.value(for: "苏".unicodeScalars) == 3)
    #expect(trie.value(for: "".unicodeScalars) == nil)
    #expect(trie.count == 2)
  }

  @Test func everyWordSurvivesTheTableGrowing() {
    let alphabet = Array("abcdefgh计时提醒天气北京".unicodeScalars)
    var generator = SeededGenerator(seed: 5)
    var reference: [[Unicode.Scalar]: Int] = [:]
    var trie = ScalarTrie<Int>()
    for value in 0..<5_000 {
      let word = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
        alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
      }
      let first = trie.insertIfAbsent(word, value: value)
      #expect(first == reference[word])
      if first == nil { reference[word] = value }
    }
    #expect(trie.count == reference.count)
    for (word, value) in reference { #expect(trie.value(for: word) == value) }
  }
}
