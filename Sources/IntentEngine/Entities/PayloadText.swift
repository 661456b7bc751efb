/// The free payload of reminders, memos and timers.
///
/// "明天早上八点提醒我买牛奶" with the time and 提醒我 removed leaves "买牛奶"; "remind me to call mom
/// at 5pm" with "remind me" and "at 5pm" removed leaves "call mom". Pieces left between removed
/// ranges are trimmed of particles (了 吧 呢 的 …, to, that, please …) at both ends and joined in
/// order; the text is the user's own words, so traditional characters and Chinese numerals stay
/// as typed.
public enum PayloadText {
  /// What remains of the utterance once `removed` ranges (trigger keywords, time expressions,
  /// fillers) are cut out, trimmed of particles and punctuation, in the user's original words.
  ///
  /// - Returns: the text and the normalised range from the first to the last piece kept, or nil
  ///   when nothing meaningful remains.
  /// - Complexity: O(n + r log r) for n scalars and r removed ranges.
  public static func payload(in text: NormalizedText, removing removed: [Range<Int>]) -> (
    text: String, range: Range<Int>
  )? {
    let s = text.scalars
    guard !s.isEmpty else { return nil }
    let cuts = removed.map { max(0, $0.lowerBound)..<min(s.count, max(0, $0.upperBound)) }
      .filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
    var pieces: [Range<Int>] = []
    var position = 0
    for cut in cuts {
      if cut.lowerBound > position { pieces.append(position..<cut.lowerBound) }
      position = max(position, cut.upperBound)
    }
    if position < s.count { pieces.append(position..<s.count) }
    let kept = pieces.compactMap { trimmed($0, in: s) }
    guard let first = kept.first, let last = kept.last else { return nil }
    let original = text.originalScalars
    var result = ""
    for (index, piece) in kept.enumerated() {
      let source = text.originalRange(of: piece)
      var words = ""
      words.unicodeScalars.append(
        contentsOf: original[
          min(source.lowerBound, original.count)..<min(source.upperBound, original.count)])
      if index > 0 {
        let previousEnd = s[kept[index - 1].upperBound - 1].value
        let nextStart = s[piece.lowerBound].value
        if isASCIIAlphanumeric(previousEnd) || isASCIIAlphanumeric(nextStart) { result += " " }
      }
      result += words
    }
    return (result, first.lowerBound..<last.upperBound)
  }

  /// The payload inside one stretch of text: `window` trimmed of spaces, particles and
  /// politeness at both ends, or nil when nothing meaningful remains.
  ///
  /// The same as ``payload(in:removing:)`` with everything outside `window` removed, without
  /// building the text: candidates that lose never need it.
  static func trimmedWindow(_ window: Range<Int>, in text: NormalizedText) -> Range<Int>? {
    let s = text.scalars
    let lower = min(max(window.lowerBound, 0), s.count)
    let upper = min(max(window.upperBound, lower), s.count)
    return trimmed(lower..<upper, in: s)
  }

  /// `range` without spaces and particles at its ends, or nil if nothing meaningful is left.
  private static func trimmed(_ range: Range<Int>, in s: [Unicode.Scalar]) -> Range<Int>? {
    var lower = range.lowerBound
    var upper = range.upperBound
    var changed = true
    while changed && lower < upper {
      changed = false
      while lower < upper, s[lower] == " " {
        lower += 1
        changed = true
      }
      while upper > lower, s[upper - 1] == " " {
        upper -= 1
        changed = true
      }
      if lower < upper, let match = particleAtStart(s, lower, upper) {
        lower = match
        changed = true
      }
      if lower < upper, let match = particleAtEnd(s, lower, upper) {
        upper = match
        changed = true
      }
    }
    guard lower < upper,
      s[lower..<upper].contains(where: { isASCIIAlphanumeric($0.value) || $0.value >= 0x3400 })
    else { return nil }
    return lower..<upper
  }

  private static func particleAtStart(_ s: [Unicode.Scalar], _ lower: Int, _ upper: Int) -> Int? {
    guard let match = leading.longestMatch(in: s, from: lower, limit: upper) else { return nil }
    guard isWordBoundary(s, at: match.end, limit: upper, latin: isASCIILetter(s[lower].value))
    else { return nil }
    // "给我妈打电话": 我 starts "my mother", and the task is for her, not politeness.
    if match.end < upper, s[match.end - 1] == "我", relationStarts.contains(s[match.end]) {
      return nil
    }
    return match.end
  }

  /// First characters of the people "我" can open (我妈, 我老公, 我们): after 给我 / 帮我 they make
  /// the words part of the task.
  private static let relationStarts = Set("妈爸老女儿爷奶姥外哥姐弟妹孩宝家们媳婆闺朋同室领".unicodeScalars)

  private static func particleAtEnd(_ s: [Unicode.Scalar], _ lower: Int, _ upper: Int) -> Int? {
    // Trailing particles are matched on the reversed text.
    let window = max(lower, upper - 12)
    let reversed = Array(s[window..<upper].reversed())
    guard let match = trailing.longestMatch(in: reversed, from: 0) else { return nil }
    let start = upper - match.end
    let latin = isASCIILetter(s[upper - 1].value)
    if latin, start > lower, isASCIIAlphanumeric(s[start - 1].value) { return nil }
    return start
  }

  private static func isWordBoundary(_ s: [Unicode.Scalar], at i: Int, limit: Int, latin: Bool)
    -> Bool
  {
    guard latin, i < limit else { return true }
    return !isASCIIAlphanumeric(s[i].value)
  }

  /// Particles and fillers dropped from the start of a piece.
  private static let leading = trie(
    // A sentence particle or an admonition never opens a task: "可以帮我记一下吗，小李借了我两百块".
    "给我|帮我|记得|别忘了|一下|吧|啊|呢|吗|呀|嘛|算了|一声|一条|新建一条|呃|额|嗯|uh|um|er|erm|hmm|"
      + "to|that|about|please|also|i need to|i have to|remember to|it's time to|and",
    reversed: false)

  /// Particles and fillers dropped from the end of a piece.
  private static let trailing = trie(
    "吧|啊|呀|呢|哦|嘛|的|哈|喔|噢|啦|呗|吗|一下|呃|额|嗯|好吗|好不好|谢谢|可以吗|行吗|快点|就行|就好|就可以|"
      + "please|thanks|thank you|ok|okay|for me|at|on|in|by|and|for|to|can or not|lah|leh|lor|uh|um|er|erm|hmm|"
      // A noun phrase never ends in its determiner: "toothpaste to my (list)" is "toothpaste".
      + "my|the|your|our",
    reversed: true)

  private static func trie(_ words: String, reversed: Bool) -> ScalarTrie<Bool> {
    var trie = ScalarTrie<Bool>()
    for word in words.split(separator: "|") {
      let scalars = Array(word.unicodeScalars)
      trie.insert(reversed ? scalars.reversed() : scalars, value: true)
    }
    return trie
  }
}
