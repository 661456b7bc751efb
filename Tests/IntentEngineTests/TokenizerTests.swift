import IntentEngine
import Testing

struct TokenizerTests {
  private func tokenizer(_ words: [String]) -> Tokenizer {
    var lexicon = Lexicon()
    for word in words { lexicon.add(Array(word.unicodeScalars)) }
    return Tokenizer(lexicon: lexicon)
  }

  private func words(_ text: String, lexicon: [String] = []) -> [String] {
    let normalized = Normalizer().normalize(text)
    return tokenizer(lexicon).tokens(in: normalized).map { normalized.string(in: $0.range) }
  }

  @Test func keepsLatinWordsWhole() {
    #expect(words("set a timer") == ["set", "a", "timer"])
  }

  @Test func splitsNumbersFromAttachedUnits() {
    #expect(
      words("5min 1h30m 8:10 8am") == ["5", "min", "1", "h", "30", "m", "8", ":", "10", "8", "am"])
  }

  @Test func keepsDecimalNumbersWhole() {
    #expect(words("1.5 hours") == ["1.5", "hours"])
  }

  @Test func segmentsCJKRunsByLongestMatch() {
    #expect(words("今天气温多少", lexicon: ["今天", "天气", "气温"]) == ["今天", "气温", "多", "少"])
  }

  @Test func fallsBackToSingleCharactersForUnknownCJK() {
    #expect(words("买牛奶") == ["买", "牛", "奶"])
  }

  @Test func lexiconWordsMaySpanScripts() {
    #expect(words("提醒我standup", lexicon: ["提醒我"]) == ["提醒我", "standup"])
  }

  @Test func latinLexiconWordNeedsAWordBoundary() {
    let tokens = words("reminder", lexicon: ["remind"])
    #expect(tokens == ["reminder"])
  }

  @Test func mixedScriptEmojiAndControlCharactersDoNotCrash() {
    let text = "⏰ 三分钟 after 🙂\u{202E}abc\u{0301}\u{0301}\u{0301} \u{7}"
    let normalized = Normalizer().normalize(text)
    let tokens = tokenizer(["三分钟"]).tokens(in: normalized)
    #expect(
      tokens.allSatisfy { !$0.range.isEmpty && $0.range.upperBound <= normalized.scalars.count })
  }
}
