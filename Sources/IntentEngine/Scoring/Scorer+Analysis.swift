extension Scorer {
  /// Reads keywords, fillers and conjunctions at token starts; matching on the analysis draws
  /// its steps from `budget`.
  func analyse(
    _ text: NormalizedText, tokens: [Token], entities: [Entity], budget: MatchBudget? = nil
  ) -> Analysis {
    var words = WordRoles(roles: grammar.roles, tokenCount: tokens.count)
    let scalars = text.scalars
    var boundaries = Self.wordBoundaries(in: scalars, entities: entities)
    Self.markEdges(of: tokens, in: &boundaries)
    Self.forEachWord(
      in: scalars, tokens: tokens, boundaries: boundaries, lexicon: grammar.lexicon, into: &words)
    // Taken out, not copied: appending to a shared array would copy it.
    var hits: [KeywordHit] = []
    swap(&hits, &words.hits)
    // A keyword read from a homophone ("剃醒" for "提醒") is a correction, like a misspelt one.
    if !text.respelt.isEmpty {
      for index in hits.indices
      where text.respelt.contains(where: { $0.overlaps(hits[index].range) }) {
        hits[index].isCorrected = true
      }
    }
    let fillers = words.fillers
    let functionWords = words.functionWords
    if !grammar.folderLexicons.isEmpty {
      hits += folderHits(in: scalars, entities: entities, besides: hits)
    }
    // Unknown Latin words one edit from a keyword count as that keyword, at a discount, and name
    // its list ("shoping list"). A word an entity reads is no slip ("mins" in "8 mins" is not
    // "minus").
    for token in tokens where token.kind == .latin && token.entry < 0 {
      if entities.contains(where: { $0.range.overlaps(token.range) }) { continue }
      let word = scalars[token.range]
      if let entry = grammar.typoIndex.correction(for: word) {
        hits.append(
          KeywordHit(
            range: token.range, entry: entry, isCorrected: true,
            isRealWord: grammar.typoIndex.isRealWord(word)))
        words.markers.record(token.range, grammar.roles[Int(entry)])
      } else if let entry = verbOfGerund(word) {
        // "would you mind deleting the reminder": the -ing form of a keyword verb is that verb,
        // read like a correction, since a grammar that wanted the form would list it.
        hits.append(KeywordHit(range: token.range, entry: entry, isCorrected: true))
        words.markers.record(token.range, grammar.roles[Int(entry)])
      }
    }
    Self.removeMentioned(from: &hits, in: text)
    var coveredByWords = [Bool](filledWith: false, count: scalars.count)
    for range in fillers {
      for i in range where i < coveredByWords.count { coveredByWords[i] = true }
    }
    for range in functionWords {
      for i in range where i < coveredByWords.count { coveredByWords[i] = true }
    }
    // Coverage counts what a reader would: a number is one unit however many digits it has.
    // Fillers and function words are explained for every intent; the rest is counted in
    // prefix sums, so an intent's share is a few subtractions over its evidence ranges.
    var openBefore = [Int32](filledWith: 0, count: scalars.count + 1)
    var contentBefore = [Int32](filledWith: 0, count: scalars.count + 1)
    var contentLength = 0
    var wordExplained = 0
    for (i, scalar) in scalars.enumerated() {
      contentBefore[i + 1] = contentBefore[i] + (coveredByWords[i] || scalar == " " ? 0 : 1)
      let continuesNumber =
        i > 0 && Tokenizer.isASCIIDigit(scalar.value)
        && (Tokenizer.isASCIIDigit(scalars[i - 1].value) || scalars[i - 1] == "."
          || scalars[i - 1] == ":")
      let countable = scalar != " " && !continuesNumber
      if countable {
        contentLength += 1
        if coveredByWords[i] { wordExplained += 1 }
      }
      openBefore[i + 1] = openBefore[i] + (countable && !coveredByWords[i] ? 1 : 0)
    }
    let asks = words.asks || text.originalScalars.contains { $0 == "?" || $0 == "？" }
    let analysis = Analysis(
      text: text, tokens: tokens, entities: entities, hits: hits, fillers: fillers,
      conjunctions: words.conjunctions, functionWords: functionWords, repairs: words.repairs,
      matchBudget: budget, abandons: words.abandons,
      // Only spaces and politeness ("uh", "嗯") may follow the word it breaks off on; a question
      // may end on a preposition ("what's my alarm set for").
      breaksOff: words.lastCutoff.flatMap { cutoff in
        Self.isOnlyPoliteness(after: cutoff.upperBound, fillers: fillers, in: scalars)
          && !(asks && words.lastCutoffIsStrandable) ? cutoff : nil
      },
      asks: asks,
      selfMentions: words.selfMentions, decreases: words.markers.decreases,
      scopeAll: words.markers.scopeAll, placeFollowers: words.placeFollowers,
      addressee: addressee(
        words.vocatives, fillers: fillers, tokens: tokens, entities: entities, in: text),
      contentLength: contentLength,
      openBefore: openBefore, contentBefore: contentBefore, wordExplained: wordExplained,
      boundaries: boundaries, clauseOpeners: words.clauseOpeners)
    // Most utterances name no list; reading one takes the whole analysis.
    if words.markers.mayNameList {
      let listName = words.markers.listName(in: analysis)
      analysis.listName = listName
    }
    // A place the gazetteer does not know, said where sentences name places, is a location like
    // a known one: patterns and slots read it alike ("how cold is it in yellowknife right now").
    // Looked for only when an intent that takes a place has a keyword here that can carry a
    // pattern, not a question word alone.
    if !entities.contains(where: { $0.type == .location }),
      hits.contains(where: { grammar.roles[Int($0.entry)].contains(.placeIntentKeyword) }),
      let place = unknownPlace(in: analysis)
    {
      analysis.insert(
        Entity(
          type: .location, range: place,
          value: .location(LocationValue(name: text.originalText(of: place)))))
    }
    return analysis
  }
}

extension Scorer {
  /// The keyword a word ending in "-ing" is the gerund of: "deleting" of "delete", "cancelling"
  /// of "cancel", "checking" of "check"; nil when none of its stems is a keyword of a group (an
  /// exclude's gerund says nothing: "charging the ebike" is no "charge").
  func verbOfGerund(_ word: ArraySlice<Unicode.Scalar>) -> Int32? {
    guard word.count >= 6, word.last == "g", word.dropLast().last == "n",
      word.dropLast(2).last == "i"
    else { return nil }
    let stem = word.dropLast(3)
    let doubled = stem.last == stem.dropLast().last
    return groupKeyword(stem) ?? (doubled ? groupKeyword(stem.dropLast()) : nil)
      ?? groupKeyword(Array(stem) + ["e"])
  }

  /// The entry of `word` when it is a keyword of some group.
  private func groupKeyword(_ word: some Collection<Unicode.Scalar>) -> Int32? {
    guard let entry = grammar.lexicon.entry(for: word),
      Int(entry) < grammar.strongestWeight.count, grammar.strongestWeight[Int(entry)] > 0
    else { return nil }
    return entry
  }
}

/// The words of the built-in lexicon an utterance holds, sorted by what their entries do.
private struct WordRoles: WordSink {
  let roles: [EntryRole]
  var hits: [KeywordHit] = []
  var fillers: [Range<Int>] = []
  var conjunctions: [Range<Int>] = []
  var functionWords: [Range<Int>] = []
  var vocatives: [Range<Int>] = []
  var repairs: [Range<Int>] = []
  var abandons: [Range<Int>] = []
  var lastCutoff: Range<Int>?
  /// Whether the last cutoff is a word a question may end on.
  var lastCutoffIsStrandable = false
  var asks = false
  var selfMentions: [Range<Int>] = []
  var markers = ListMarkers()
  var placeFollowers: [Range<Int>] = []
  var clauseOpeners: [Range<Int>] = []
  /// The last word that asks ("did i"), whose inner words are found after it.
  var lastAsking: Range<Int>?

  init(roles: [EntryRole], tokenCount: Int) {
    self.roles = roles
    // Room for a word per token, so the arrays most parses fill are allocated once, not grown.
    hits.reserveCapacity(tokenCount + 4)
    functionWords.reserveCapacity(tokenCount)
  }

  mutating func found(_ range: Range<Int>, _ entry: Int32) {
    let role = roles[Int(entry)]
    if role.isEmpty { return }
    // A word that breaks a sentence off is none when it begins a longer word read here ("for"
    // in "pause it for now", "set a timer for me"): words come shortest first at each start.
    if let cutoff = lastCutoff, cutoff.lowerBound == range.lowerBound,
      cutoff.upperBound < range.upperBound, !role.contains(.cutoff)
    {
      lastCutoff = nil
    }
    if role.contains(.keyword) { hits.append(KeywordHit(range: range, entry: entry)) }
    if role.contains(.filler) { fillers.append(range) }
    if role.contains(.conjunction) { conjunctions.append(range) }
    if role.contains(.functionWord) { functionWords.append(range) }
    if role.contains(.vocative) { vocatives.append(range) }
    if role.contains(.repair) { repairs.append(range) }
    if role.contains(.abandon) { abandons.append(range) }
    if role.contains(.cutoff), lastCutoff.map({ $0.upperBound < range.upperBound }) ?? true {
      lastCutoff = range
      lastCutoffIsStrandable = role.contains(.strandable)
    }
    if role.contains(.questionMarker) {
      asks = true
      lastAsking = range
    }
    if role.contains(.selfWord) { selfMentions.append(range) }
    markers.record(range, role)
    if role.contains(.placeFollower) { placeFollowers.append(range) }
    // A subject after its auxiliary ("did i") asks; it opens no clause.
    if role.contains(.clauseOpener),
      !(lastAsking.map { $0.lowerBound < range.lowerBound && range.upperBound <= $0.upperBound }
        ?? false)
    {
      clauseOpeners.append(range)
    }
  }
}
