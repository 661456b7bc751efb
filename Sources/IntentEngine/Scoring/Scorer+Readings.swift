/// Readings of the whole utterance, the same for every intent: whom it is said to, where
/// politeness ends, which words are only mentioned, whether the words stutter.
extension Scorer {
  /// The words naming someone else the utterance is said to, or nil when it is said to the
  /// engine: an opening word of address, speech relayed to someone named, or a word of address
  /// that is a clause of its own.
  ///
  /// Every intent loses ``addresseePenalty`` when there is one ("妈，你出门记得带伞").
  func addressee(
    _ vocatives: [Range<Int>], fillers: [Range<Int>], tokens: [Token], entities: [Entity],
    in text: NormalizedText
  ) -> Range<Int>? {
    openingAddress(vocatives, fillers: fillers, tokens: tokens, entities: entities, in: text)
      ?? relayed(to: vocatives, fillers: fillers, tokens: tokens, in: text)
      ?? Self.vocativeClause(vocatives, in: text)
  }

  /// Whom the utterance opens by speaking to, or nil when it does not open by naming someone.
  ///
  /// The whole first clause, after any fillers, is a word of address: a listed vocative
  /// ("hey mom, …"), a Chinese name in address ("小王，…"), or one capitalised word the grammars do
  /// not know when the rest speaks to "you" ("Tom, can you jot down …").
  private func openingAddress(
    _ vocatives: [Range<Int>], fillers: [Range<Int>], tokens: [Token], entities: [Entity],
    in text: NormalizedText
  ) -> Range<Int>? {
    let scalars = text.scalars
    // "mom can u remind me …": a word of address run into a question to "you".
    let opening = Self.pastPoliteness(
      from: 0, to: min(scalars.count, Self.longestAddress), fillers: fillers, in: scalars)
    if let listed = vocatives.first(where: { $0.lowerBound == opening }),
      Self.asksYou(scalars[listed.upperBound...])
    {
      return listed
    }
    // Words of address are short: a long first clause is never one.
    guard let clauseEnd = text.firstClauseBreak, clauseEnd < Self.longestAddress else {
      return nil
    }
    let start = Self.pastPoliteness(from: 0, to: clauseEnd, fillers: fillers, in: scalars)
    var end = clauseEnd
    while end > start, scalars[end - 1] == " " { end -= 1 }
    let clause = start..<end
    if let listed = vocatives.first(where: { $0 == clause }) { return listed }
    guard !clause.isEmpty, !entities.contains(where: { $0.range.overlaps(clause) }) else {
      return nil
    }
    if grammar.names.isName(scalars[clause]),
      !tokens.contains(where: { $0.range == clause && $0.kind == .lexicon })
    {
      return clause
    }
    guard let token = tokens.first(where: { $0.range == clause }), token.kind == .latin,
      token.entry < 0, grammar.typoIndex.correction(for: scalars[clause]) == nil,
      let first = text.originalScalars[text.originalRange(of: clause)].first,
      first.properties.isUppercase, Self.speaksToYou(scalars[clauseEnd...])
    else { return nil }
    return clause
  }

  /// The opening of speech the user passes on to someone named, or nil.
  ///
  /// "跟阿杰讲 …", "告诉小王 …", "tell jake …", "let mike know …": what follows is for them, not a
  /// command for us; "告诉我 …" and "tell me …" ask us.
  private func relayed(
    to vocatives: [Range<Int>], fillers: [Range<Int>], tokens: [Token], in text: NormalizedText
  ) -> Range<Int>? {
    let s = text.scalars
    let start = Self.pastPoliteness(from: 0, to: s.count, fillers: fillers, in: s)
    guard start + 2 < s.count else { return nil }
    let isSelf: (Unicode.Scalar) -> Bool = { "我咱你您".unicodeScalars.contains($0) }
    // 告诉 / 转告 + a name; 跟 / 和 + a name of one to four characters + 说 / 讲.
    if s[start + 1] == "诉" && s[start] == "告" || s[start + 1] == "告" && s[start] == "转" {
      let name = start + 2
      return s[name].value >= 0x3400 && !isSelf(s[name]) ? start..<name + 1 : nil
    }
    if s[start] == "跟" || s[start] == "和" {
      for end in (start + 2)...min(start + 5, s.count - 1)
      where s[end] == "说" || s[end] == "讲" {
        let name = s[(start + 1)..<end]
        guard name.allSatisfy({ $0.value >= 0x3400 && !isSelf($0) }) else { return nil }
        return start..<end + 1
      }
      return nil
    }
    // "tell <name>", "let <name> know": the name is a word the grammars do not know, or a word
    // of address ("tell mom …").
    guard let opener = tokens.firstIndex(where: { $0.range.lowerBound == start }),
      opener + 1 < tokens.count
    else { return nil }
    let verb = s[tokens[opener].range]
    let nameToken = tokens[opener + 1]
    let isName =
      (nameToken.kind == .latin && nameToken.entry < 0)
      || vocatives.contains(nameToken.range)
    guard isName else { return nil }
    if verb.elementsEqual("tell".unicodeScalars) { return start..<nameToken.range.upperBound }
    if verb.elementsEqual("let".unicodeScalars), opener + 2 < tokens.count,
      s[tokens[opener + 2].range].elementsEqual("know".unicodeScalars)
    {
      return start..<tokens[opener + 2].range.upperBound
    }
    return nil
  }

  /// A word of address that makes up a clause of its own later in the utterance ("take note,
  /// class, this will be on the exam"), or nil.
  private static func vocativeClause(
    _ vocatives: [Range<Int>], in text: NormalizedText
  ) -> Range<Int>? {
    guard text.firstClauseBreak != nil else { return nil }
    let scalars = text.scalars
    return vocatives.first { range in
      var before = range.lowerBound
      while before > 0, scalars[before - 1] == " ", !text.isClauseBreak(at: before - 1) {
        before -= 1
      }
      var after = range.upperBound
      while after < scalars.count, scalars[after] == " ", !text.isClauseBreak(at: after) {
        after += 1
      }
      let opens = before == 0 || text.isClauseBreak(at: before - 1)
      let closes = after == scalars.count || text.isClauseBreak(at: after)
      return opens && closes && before > 0
    }
  }

  /// The longest first clause read as a word of address, in scalars.
  private static let longestAddress = 24

  /// Whether `text` holds "you", "your" or "u" as a word.
  private static func speaksToYou(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
    var word: [Unicode.Scalar] = []
    for scalar in text {
      if isASCIIWord(scalar) {
        word.append(scalar)
        continue
      }
      if Self.secondPerson.contains(word) { return true }
      word.removeAll(keepingCapacity: true)
    }
    return Self.secondPerson.contains(word)
  }

  /// Whether `words` open with a question put to "you" ("can u", "could you", "你能不能").
  private static func asksYou(_ words: ArraySlice<Unicode.Scalar>) -> Bool {
    let rest = words.drop { $0 == " " }
    guard rest.count < words.count || rest.first.map({ $0.value >= 0x3400 }) == true else {
      return false
    }
    return questionsToYou.contains { rest.starts(with: $0) }
  }

  /// Openings that put a question to "you".
  private static let questionsToYou: [[Unicode.Scalar]] = [
    "can you ", "can u ", "could you ", "could u ", "will you ", "would you ", "can ya ",
    "你能不能", "你可以", "你能", "你帮我", "你记得",
  ].map { Array($0.unicodeScalars) }

  /// The words for "you", as a speaker types them.
  private static let secondPerson: Set<[Unicode.Scalar]> = Set(
    ["you", "your", "u", "ya"].map { Array($0.unicodeScalars) })

  /// Whether nothing but spaces and politeness ("uh", "嗯", "please") follows `offset`.
  ///
  /// The utterance then ends on what precedes: a word it breaks off on ("加到我的 嗯"), or one
  /// that drops what came before ("never mind").
  static func isOnlyPoliteness(
    after offset: Int, fillers: [Range<Int>], in scalars: [Unicode.Scalar]
  ) -> Bool {
    pastPoliteness(from: offset, to: scalars.count, fillers: fillers, in: scalars) == scalars.count
  }

  /// The first offset from `start` that is neither a space nor the start of a filler ending by
  /// `limit`: where the words after any politeness begin ("hey, please | …").
  private static func pastPoliteness(
    from start: Int, to limit: Int, fillers: [Range<Int>], in scalars: [Unicode.Scalar]
  ) -> Int {
    var position = start
    while position < limit {
      if scalars[position] == " " {
        position += 1
      } else if let filler = fillers.first(where: {
        $0.lowerBound == position && $0.upperBound <= limit
      }) {
        position = filler.upperBound
      } else {
        break
      }
    }
    return position
  }

  /// Removes the hits inside quotes or title marks: a word there is mentioned, not used
  /// ("“笔记”和“笔迹”有什么区别", 《备忘录》).
  static func removeMentioned(from hits: inout [KeywordHit], in text: NormalizedText) {
    let quoted = quotedSpans(in: text.originalScalars)
    guard !quoted.isEmpty else { return }
    hits.removeAll { hit in
      let source = text.originalRange(of: hit.range)
      return quoted.contains {
        $0.contains(source.lowerBound) && source.upperBound <= $0.upperBound
      }
    }
  }

  /// Spans of the original text inside paired quotes or title marks, when something stands
  /// outside them: a sentence that is all one quotation is still said.
  private static func quotedSpans(in original: [Unicode.Scalar]) -> [Range<Int>] {
    var spans: [Range<Int>] = []
    var index = 0
    while index < original.count {
      guard let closer = Self.quoteCloser(of: original[index]),
        let end = original[(index + 1)...].firstIndex(of: closer)
      else {
        index += 1
        continue
      }
      spans.append((index + 1)..<end)
      index = end + 1
    }
    guard let first = spans.first, let last = spans.last else { return [] }
    let outside =
      original[..<(first.lowerBound - 1)].contains { !$0.properties.isWhitespace }
      || original[(last.upperBound + 1)...].contains { !$0.properties.isWhitespace }
    return outside ? spans : []
  }

  /// The closer of an opening quote or title mark, or nil for any other scalar.
  ///
  /// The ASCII apostrophe is left out: it is an apostrophe far more often than a quote.
  @inline(__always)
  private static func quoteCloser(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
    switch scalar.value {
    case 0x22: "\""  // "
    case 0x2018: "\u{2019}"  // ‘ ’
    case 0x201C: "\u{201D}"  // “ ”
    case 0x3008: "\u{3009}"  // 〈 〉
    case 0x300A: "\u{300B}"  // 《 》
    case 0x300C: "\u{300D}"  // 「 」
    case 0x300E: "\u{300F}"  // 『 』
    case 0xFF02: "\u{FF02}"  // ＂
    default: nil
    }
  }

  /// Two words in a row that are the same word of two or more letters ("天气天气", "the the"),
  /// as their joint range: speech that did not come out, which costs ``stutterPenalty``.
  static func stutter(in analysis: Analysis) -> Range<Int>? {
    let scalars = analysis.text.scalars
    for (first, second) in zip(analysis.tokens, analysis.tokens.dropFirst())
    where first.range.count >= 2 && first.kind != .number && first.kind != .symbol
      && first.range.count == second.range.count
      && scalars[first.range].elementsEqual(scalars[second.range])
    {
      return first.range.lowerBound..<second.range.upperBound
    }
    return nil
  }
}
