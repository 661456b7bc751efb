extension Scorer {
  /// Which of an intent's sentence patterns an utterance has, and where it starts.
  struct PatternFit {
    var match: PatternMatcher.Match
    /// The pattern's index among the intent's patterns.
    var index: Int
    /// Where the last clause the pattern fits starts, when it fits that clause only.
    var tailStart: Int?
    /// Where the first clause the pattern fits ends, when it fits that clause only and context
    /// follows ("do I need an umbrella, I'm heading out").
    var headEnd: Int?

    /// Whether the pattern fits one clause of the utterance, not all of it.
    var isClauseOnly: Bool { tailStart != nil || headEnd != nil }
  }

  /// Where in the utterance a scoring looks for one of the intent's sentence patterns.
  enum PatternReach {
    /// The whole utterance: the strongest evidence there is.
    case wholeSentence
    /// Its last clause, after context, for an intent that takes free text.
    case lastClause
    /// Its first clause, before context.
    case firstClause
  }

  /// The first of `intent`'s patterns that `reach` finds in the utterance.
  ///
  /// A pattern is the sentence's shape: the strongest evidence there is, and what pins the slots.
  /// The readings of one clause are tried only after the whole utterance has failed.
  func patternFit(
    _ intent: CompiledIntent, _ hits: ArraySlice<TargetedHit>, keywordWeight: Double,
    _ analysis: Analysis, _ matcher: PatternMatcher, reach: PatternReach
  ) -> PatternFit? {
    switch reach {
    case .wholeSentence:
      return wholeSentenceFit(intent, keywordWeight: keywordWeight, analysis, matcher)
    case .lastClause: return lastClauseFit(intent, hits, analysis, matcher)
    case .firstClause:
      return firstClauseFit(intent, keywordWeight: keywordWeight, analysis, matcher)
    }
  }

  /// The first of `intent`'s patterns the whole utterance matches; not tried when the intent's
  /// keywords are too weak to carry one.
  private func wholeSentenceFit(
    _ intent: CompiledIntent, keywordWeight: Double, _ analysis: Analysis,
    _ matcher: PatternMatcher
  ) -> PatternFit? {
    // Question words and possessives alone ("我", "how") never carry a pattern: not worth trying.
    guard keywordWeight >= Self.minimumPatternWeight else { return nil }
    for index in intent.patterns.indices where matcher.mayOpen(intent.patternOpenings[index]) {
      let pattern = intent.patterns[index]
      if let match = matcher.match(pattern), !pattern.isHeading || isHeading(match, analysis) {
        return PatternFit(match: match, index: index)
      }
    }
    return nil
  }

  /// The first of `intent`'s patterns that the utterance's last clause matches, after context
  /// ("我老是忘，周五下午三点提醒我交水电费", "I always forget lunch, so please remind me at noon to
  /// eat"), for an intent that takes free text.
  private func lastClauseFit(
    _ intent: CompiledIntent, _ hits: ArraySlice<TargetedHit>, _ analysis: Analysis,
    _ matcher: PatternMatcher
  ) -> PatternFit? {
    guard intent.hasTextSlot else { return nil }
    // The clause holds one of the intent's keywords, so it starts at or before the last one.
    let lastKeyword =
      hits.lazy.filter { $0.target.kind == .group }.map(\.hit.range.lowerBound).max()
      ?? analysis.text.scalars.count
    // A start after punctuation is a clause of its own ("it's friday, remind me thursday at
    // 7"); otherwise the nearest word start to the keyword is tried first, so context words
    // ("friday remind me …") are not taken into the command.
    var starts = matcher.clauseStarts(through: lastKeyword, count: 4)
    let head = matcher.bounds.lowerBound
    let length = analysis.text.scalars.count
    if let first = analysis.text.firstClauseBreak, first < lastKeyword {
      var clause = max(head, min(lastKeyword, length)) - 1
      while clause >= max(head, first), !analysis.text.isClauseBreak(at: clause) { clause -= 1 }
      if clause >= max(head, first), !starts.contains(clause + 1) { starts.append(clause + 1) }
    }
    // Ranked by key, without a closure that would copy the analysis: a start after a break
    // sorts above every other (its key is raised by the length), then later before earlier.
    for index in starts.indices where analysis.text.isClauseBreak(at: starts[index] - 1) {
      starts[index] += length
    }
    starts.sort(by: >)
    for index in starts.indices where starts[index] >= length { starts[index] -= length }
    for start in starts {
      let opensClause = start == head || analysis.text.isClauseBreak(at: start - 1)
      for index in intent.patterns.indices where matcher.mayOpen(intent.patternOpenings[index]) {
        let pattern = intent.patterns[index]
        guard opensClause || !pattern.isAnchored else { continue }
        if let match = matcher.match(pattern, from: start),
          !pattern.isHeading || isHeading(match, analysis)
        {
          return PatternFit(match: match, index: index, tailStart: start)
        }
      }
    }
    return nil
  }

  /// The first of `intent`'s patterns that the utterance's first clause matches, when context
  /// follows it ("whats my pulse at the moment, feels fast after the stairs", "今天步数达标了没，
  /// 目标八千").
  ///
  /// A clause ends at punctuation or before a word that opens a new clause ("i", "because",
  /// "during"); the longest is tried first. What follows must hold something to say, and nothing
  /// that drops the request ("明天的天气 算了 不看了"). Like a last-clause match, it pins the slots
  /// and counts as weaker evidence than a whole sentence.
  private func firstClauseFit(
    _ intent: CompiledIntent, keywordWeight: Double, _ analysis: Analysis,
    _ matcher: PatternMatcher
  ) -> PatternFit? {
    guard keywordWeight >= Self.minimumPatternWeight else { return nil }
    let text = analysis.text
    let (lower, upper) = (matcher.bounds.lowerBound, matcher.bounds.upperBound)
    let openers = analysis.clauseOpeners
    guard text.firstClauseBreak != nil || !openers.isEmpty, upper > lower + 1 else { return nil }
    let firstBreak = text.firstClauseBreak ?? upper
    // Punctuation ends a clause; so does the space before a word that opens a new one in run-on
    // speech ("wake me at 5 tomorrow i got a flight to catch"). The longest clause is tried
    // first: it leaves the least to context.
    var next = openers.count - 1
    for end in stride(from: upper - 1, to: lower, by: -1) {
      while next >= 0, openers[next].lowerBound - 1 > end { next -= 1 }
      let opens = next >= 0 && openers[next].lowerBound - 1 == end && text.scalars[end] == " "
      let breaks =
        end >= firstBreak && text.isClauseBreak(at: end) && !text.isClauseBreak(at: end - 1)
      guard opens || breaks,
        analysis.contentBefore[end] > analysis.contentBefore[lower],
        analysis.contentBefore[upper] > analysis.contentBefore[end],
        !analysis.abandons.contains(where: { $0.lowerBound >= end })
      else { continue }
      let clause = matcher.firstClause(endingAt: end)
      for index in intent.patterns.indices where clause.mayOpen(intent.patternOpenings[index]) {
        let pattern = intent.patterns[index]
        guard !pattern.isHeading, let match = clause.match(pattern) else { continue }
        return PatternFit(match: match, index: index, headEnd: clause.bounds.upperBound)
      }
    }
    return nil
  }

  /// Whether a heading pattern's match has punctuation before its free text ("note: …"): without
  /// it the head word is only a word of the sentence ("Note to Self is a great podcast").
  func isHeading(_ match: PatternMatcher.Match, _ analysis: Analysis) -> Bool {
    guard var position = match.captureRanges.first?.lowerBound else { return false }
    let scalars = analysis.text.scalars
    while position > 0, scalars[position - 1] == " " {
      if analysis.text.isClauseBreak(at: position - 1) { return true }
      position -= 1
    }
    return false
  }
}
