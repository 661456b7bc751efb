/// Scores every intent that has evidence in an utterance; pure and allocation-light.
///
/// The weights are the engine's tuned constants, chosen on the `dev` fixtures; `Calibration`
/// then maps the resulting scores to confidences.
struct Scorer {
  /// Least total weight of the keyword groups that fired for the evidence to count as strong: a
  /// main keyword (2.5) is enough, a creating verb or a bare noun alone is not.
  static let strongEvidenceWeight = 2.0
  /// Least keyword weight for an intent's patterns to be tried.
  static let minimumPatternWeight = 1.0
  /// Penalty for an intent whose keywords are all weak.
  static let weakEvidencePenalty = 2.0
  /// Score for a full pattern match (strong evidence: the sentence is a known shape).
  static let patternBonus = 2.5
  /// Score for a full match of a pattern with a free-text part, which fits more sentences.
  static let capturePatternBonus = 1.5
  /// Score for a pattern that matches the last clause after context ("dog food's almost gone,
  /// remind me tonight to order more"): weaker than a whole-sentence match.
  static let tailPatternBonus = 1.0
  /// Score per non-text slot filled from an entity.
  static let filledSlotBonus = 0.5
  /// What a required slot left empty costs when a pattern matched: nothing.
  ///
  /// Confidence is about what the user wants; a missing detail ("set a timer", "remind me to call
  /// mom") is asked for, not held against the intent (DESIGN, "Intent first, then details").
  static let missingSlotPenalty = 0.0
  /// Penalty for a required slot missing with no pattern to carry the intent, or misfilled.
  ///
  /// Misfilled: its kind of value was said but cannot fill it (a countdown of thirty days is no
  /// timer, "in 10 minutes" is no clock time). Without its slot's value and without the sentence's shape, an
  /// intent rests on a loose word ("tell me when was the car in the shop" is no timer).
  /// Hand-set at the missing-slot penalty (1.5) the `dev` fixtures were tuned with.
  static let unsupportedSlotPenalty = 1.5
  /// Weight of coverage: the share of the utterance explained by the intent's evidence, centred
  /// so that half-explained text neither helps nor hurts.
  static let coverageWeight = 10.0
  /// Penalty for an intent whose keywords all lie inside another intent's captured free text.
  static let insidePayloadPenalty = 3.0
  /// Taken from every intent when the utterance opens by naming someone else.
  static let addresseePenalty = 6.0
  /// Taken from every intent when the utterance breaks off on a word no sentence ends on.
  static let cutoffPenalty = 6.0
  /// Share of an exclude's penalty that applies when the word sits inside the free text.
  static let payloadExcludeShare = 0.5
  /// Penalty for a veto word inside the free text, where it may be the user's own words
  /// ("remind me to cancel the gym") rather than a command.
  static let payloadVetoPenalty = 2.0
  /// Share of a keyword's weight that a misspelling of it earns.
  static let typoDiscount = 0.8
  /// Share of a payload-shaped residual that a text-slot intent may count as explained.
  static let payloadCredit = 0.6
  /// Taken from an intent whose one keyword comes amid stuttered words ("天气天气啊那个的", "the
  /// the rain uh"): speech that did not come out is no request the engine can be sure of.
  static let stutterPenalty = 2.5

  let grammar: CompiledGrammar

  /// Reads keywords, fillers and conjunctions at token starts; matching on the analysis draws
  /// its steps from `budget`.
  func analyse(
    _ text: NormalizedText, tokens: [Token], entities: [Entity], budget: MatchBudget? = nil
  ) -> Analysis {
    var words = WordRoles(roles: grammar.roles, tokenCount: tokens.count)
    let scalars = text.scalars
    var boundaries = [Bool](filledWith: false, count: scalars.count + 1)
    boundaries[0] = true
    boundaries[scalars.count] = true
    for token in tokens {
      boundaries[token.range.lowerBound] = true
      boundaries[token.range.upperBound] = true
    }
    for entity in entities where entity.range.upperBound <= scalars.count {
      boundaries[entity.range.lowerBound] = true
      boundaries[entity.range.upperBound] = true
    }
    for (i, scalar) in scalars.enumerated() where scalar == " " {
      boundaries[i] = true
      boundaries[i + 1] = true
    }
    Self.forEachWord(
      in: scalars, tokens: tokens, boundaries: boundaries, lexicon: grammar.lexicon, into: &words)
    // Taken out, not copied: appending to a shared array would copy it.
    var hits: [KeywordHit] = []
    swap(&hits, &words.hits)
    let fillers = words.fillers
    let functionWords = words.functionWords
    if !grammar.folderLexicons.isEmpty {
      hits += folderHits(in: scalars, entities: entities, besides: hits)
    }
    // Unknown Latin words one edit from a keyword count as that keyword, at a discount. A word an
    // entity reads is no slip ("mins" in "8 mins" is not "minus").
    for token in tokens where token.kind == .latin && token.entry < 0 {
      if entities.contains(where: { $0.range.overlaps(token.range) }) { continue }
      if let entry = grammar.typoIndex.correction(for: scalars[token.range]) {
        hits.append(KeywordHit(range: token.range, entry: entry, isCorrected: true))
      }
    }
    // A word in quotes or a title is mentioned, not used: "“笔记”和“笔迹”有什么区别", 《备忘录》.
    let quoted = Self.quotedSpans(in: text.originalScalars)
    if !quoted.isEmpty {
      hits.removeAll { hit in
        let source = text.originalRange(of: hit.range)
        return quoted.contains {
          $0.contains(source.lowerBound) && source.upperBound <= $0.upperBound
        }
      }
    }
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
    var analysis = Analysis(
      text: text, tokens: tokens, entities: entities, hits: hits, fillers: fillers,
      conjunctions: words.conjunctions, functionWords: functionWords, repairs: words.repairs,
      matchBudget: budget, abandons: words.abandons,
      breaksOff: words.lastCutoff.flatMap { cutoff in
        // Only spaces and politeness ("uh", "嗯") may follow the word it breaks off on.
        Self.pastPoliteness(
          from: cutoff.upperBound, to: scalars.count, fillers: fillers, in: scalars)
          == scalars.count ? cutoff : nil
      },
      asks: words.asks || text.originalScalars.contains { $0 == "?" || $0 == "？" },
      selfMentions: words.selfMentions, decreases: words.markers.decreases,
      scopeAll: words.markers.scopeAll, placeFollowers: words.placeFollowers,
      addressee: addressee(
        words.vocatives, fillers: fillers, tokens: tokens, entities: entities, in: text)
        ?? relayed(to: words.vocatives, fillers: fillers, tokens: tokens, in: text)
        ?? Self.vocativeClause(words.vocatives, in: text),
      contentLength: contentLength,
      openBefore: openBefore, contentBefore: contentBefore, wordExplained: wordExplained,
      boundaries: boundaries)
    // Most utterances name no list; reading one takes the whole analysis.
    if words.markers.mayNameList {
      let listName = words.markers.listName(in: analysis)
      analysis.listName = listName
    }
    return analysis
  }

  /// Scores every intent with at least one keyword in the utterance, best first.
  func candidates(for analysis: Analysis) -> [Candidate] {
    // Hits grouped by intent, in intent order: a sort of a small array, no dictionary.
    var touched: [TargetedHit] = []
    touched.reserveCapacity(2 * (analysis.hits.count + analysis.entities.count))
    for hit in analysis.hits {
      for target in grammar.targets[Int(hit.entry)] {
        touched.append(TargetedHit(hit: hit, target: target))
      }
    }
    for entity in analysis.entities {
      for target in grammar.entityTargets[entity.type.rank] {
        touched.append(TargetedHit(hit: KeywordHit(range: entity.range, entry: -1), target: target))
      }
    }
    touched.sort {
      ($0.target.intent, $0.hit.range.lowerBound, $0.hit.range.upperBound)
        < ($1.target.intent, $1.hit.range.lowerBound, $1.hit.range.upperBound)
    }
    var result: [Candidate] = []
    guard !touched.isEmpty else { return result }
    let matcher = makeMatcher(analysis)
    // What each intent explains, in one buffer that every scoring below reuses.
    var explained: [Range<Int>] = []
    explained.reserveCapacity(2 * touched.count + 8)
    var start = 0
    while start < touched.count {
      let intentIndex = Int(touched[start].target.intent)
      var end = start + 1
      while end < touched.count, touched[end].target.intent == touched[start].target.intent {
        end += 1
      }
      let group = start..<end
      start = end
      if var candidate = score(
        intentIndex, touched[group], analysis, matcher, explaining: &explained)
      {
        candidate.hits = group
        result.append(candidate)
      }
    }
    func takeFromEvery(_ penalty: Double, _ record: EvidenceRecord) {
      for index in result.indices {
        result[index].score -= penalty
        result[index].evidence.append(record)
      }
    }
    // Broken off ("how many steps did", "加到我的"): whatever was meant was not said.
    if let cutoff = analysis.breaksOff {
      takeFromEvery(Self.cutoffPenalty, .brokenOff(range: cutoff, penalty: Self.cutoffPenalty))
    }
    // Said to someone else ("妈，你出门记得带伞"): no command here is ours.
    if let addressee = analysis.addressee {
      takeFromEvery(
        Self.addresseePenalty, .addressedToOther(range: addressee, penalty: Self.addresseePenalty))
    }
    // Keywords that all sit inside another intent's captured text are that text, not a command
    // of their own: "记一下 明天下雨要带伞" is a note, not a weather question.
    if result.count > 1 {
      for index in result.indices {
        let keywords = touched[result[index].hits].lazy.filter { $0.target.kind == .group }
        guard !keywords.isEmpty else { continue }
        for other in result.indices where other != index && !result[other].captures.isEmpty {
          let ranges = result[other].captures
          let inside = keywords.allSatisfy { keyword in
            ranges.contains {
              $0.lowerBound <= keyword.hit.range.lowerBound
                && keyword.hit.range.upperBound <= $0.upperBound
            }
          }
          guard inside else { continue }
          result[index].score -= Self.insidePayloadPenalty
          result[index].evidence.append(
            .insidePayload(of: result[other].intent, penalty: Self.insidePayloadPenalty))
          break
        }
      }
    }
    result.sort { ($0.score, $1.intent) > ($1.score, $0.intent) }
    // The winner without a full pattern may still have one for its last clause, after context;
    // it is looked for once, for the winner alone, and counts as weaker evidence. Its full
    // patterns have already failed and are not tried again.
    if let best = result.first, grammar.intents[best.intent].hasTextSlot,
      !best.hasPattern,
      var refined = score(
        best.intent, touched[best.hits], analysis, matcher, explaining: &explained,
        allowTail: true, tailOnly: true)
    {
      // Penalties set against the other candidates above hold for the refined score too.
      for record in best.evidence {
        switch record {
        case .insidePayload(_, let penalty), .addressedToOther(_, let penalty),
          .brokenOff(_, let penalty):
          refined.score -= penalty
          refined.evidence.append(record)
        default: continue
        }
      }
      if refined.score > best.score {
        result[0] = refined
      } else {
        result[0].slots = refined.slots
        result[0].missingSlots = refined.missingSlots
      }
    } else if let best = result.first,
      case let head = matcher.bounds.lowerBound,
      best.captures.contains(where: { capture in
        capture.lowerBound == head
          && (capture.contains(where: analysis.text.isClauseBreak(at:))
            || (analysis.text.isClauseBreak(at: capture.upperBound)
              && !Self.isShortName(analysis.text.scalars[capture])))
      }),
      let refined = score(
        best.intent, touched[best.hits], analysis, matcher, explaining: &explained,
        allowTail: true, tailOnly: true),
      refined.hasPattern
    {
      // Free text that opens the sentence and runs over or up to a clause break has swallowed
      // context ("鸡蛋已经好了 把煮鸡蛋的倒计时取消吧", "面膜敷上了 计时15分钟"): the last clause's own
      // match names it better. A short name set apart is still a name ("泡面 3分钟 计时").
      result[0].slots = refined.slots
      result[0].missingSlots = refined.missingSlots
    }
    return result
  }

  private func score(
    _ intentIndex: Int, _ hits: ArraySlice<TargetedHit>, _ analysis: Analysis,
    _ matcher: PatternMatcher, explaining evidenceRanges: inout [Range<Int>],
    allowTail: Bool = false, tailOnly: Bool = false
  ) -> Candidate? {
    // An intent that only its excludes name ("music" for every built-in intent) is no candidate:
    // it is left before anything is allocated.
    guard hits.contains(where: { $0.target.kind == .group }) else { return nil }
    let intent = grammar.intents[intentIndex]
    // Capacities cover the usual case, so the arrays are allocated once, not grown.
    var evidence: [EvidenceRecord] = []
    evidence.reserveCapacity(hits.count + 6)
    var score = 0.0
    // What this intent explains: fillers and function words (neither evidence nor noise), then
    // its keywords and the entities that fill its slots.
    evidenceRanges.removeAll(keepingCapacity: true)
    func explain(_ range: Range<Int>) { evidenceRanges.append(range) }

    // The intent's own words: keyword groups for it, excludes against it.
    guard
      let keywords = readKeywords(
        intent, hits, analysis, evidence: &evidence, explaining: &evidenceRanges)
    else { return nil }
    score += keywords.score
    let (groupHit, spelledRight, excludeHits) =
      (keywords.groupHit, keywords.spelledRight, keywords.excludeHits)
    // A spelling correction alone never makes a command ("what is the time" is not about a
    // timer): when a required group, or every group, is met only by a corrected word, the
    // sentence must also hold a value for one of the intent's slots. A pattern is not enough:
    // it matches the corrected word too ("what's the time" has the shape of "what's the timer").
    let leansOnCorrection =
      intent.groups.indices.contains {
        groupHit.contains($0) && !spelledRight.contains($0) && intent.groups[$0].isRequired
      } || spelledRight.isEmpty
    // A veto outside any free-text part ends the intent here; inside the payload ("remind me to
    // cancel the gym") it is the user's words, not a command.
    let vetoed = excludeHits.contains { intent.excludes[Int($0.target.index)] == nil }

    var keywordWeight = 0.0
    for index in intent.groups.indices where groupHit.contains(index) {
      keywordWeight += intent.groups[index].weight
    }
    // The sentence's shape: it pins the slots, and counts as evidence unless it fits the last
    // clause only.
    let fit = patternFit(
      intent, hits, keywordWeight: keywordWeight, analysis, matcher, allowTail: allowTail,
      tailOnly: tailOnly)
    let patternMatch = fit?.match
    let patternIndex = fit?.index ?? 0
    let tailStart = fit?.tailStart
    // Excludes: words against the intent, at half weight inside its free text.
    // The start is read here: a closure in the count would otherwise capture the whole matcher.
    guard
      countExcludes(
        excludeHits, of: intent, patternMatch: patternMatch,
        commandStart: tailStart ?? matcher.bounds.lowerBound, score: &score, evidence: &evidence)
    else { return nil }
    if vetoed, patternMatch == nil { return nil }
    // Weak groups (question words, possessives) add to evidence but are not enough on their own,
    // unless the whole sentence has a known shape.
    if keywordWeight < Self.strongEvidenceWeight, patternMatch == nil {
      score -= Self.weakEvidencePenalty
      evidence.append(.weakOnly(penalty: Self.weakEvidencePenalty))
    }

    if let patternMatch {
      let bonus =
        tailStart != nil
        ? Self.tailPatternBonus
        : patternMatch.hasCaptures ? Self.capturePatternBonus : Self.patternBonus
      score += bonus
      evidence.append(.pattern(index: patternIndex, bonus: bonus))
    }

    var slots: [SlotFill] = []
    slots.reserveCapacity(intent.spec.slots.count)
    var missing: [String] = []
    var textSlotIndex: Int?
    for (slotIndex, spec) in intent.spec.slots.enumerated() {
      if spec.type == .text {
        textSlotIndex = slotIndex
        continue
      }
      if spec.type == .list || spec.type == .scope {
        let marker: (Range<Int>, SlotValue)? =
          spec.type == .list
          ? analysis.listName.map { ($0.range, .list($0.name)) }
          : analysis.scopeAll.map { ($0, .scope("all")) }
        if let (range, value) = marker {
          explain(range)
          slots.append(.marker(slot: slotIndex, value, range))
        } else if spec.isRequired {
          missing.append(spec.name)
          evidence.append(
            .missingSlot(slot: slotIndex, isText: false, penalty: Self.missingSlotPenalty))
        }
        continue
      }
      let candidateIndex =
        patternMatch?.entity(forSlot: spec.name)
        ?? bestEntity(for: spec.type, absolute: spec.isAbsolute, analysis)
      let entityIndex =
        candidateIndex
        .flatMap { index in
          !spec.isShort || Self.isShort(analysis.entities[index]) ? index : nil
        }
        .flatMap { index in
          Self.fitsGrain(analysis.entities[index], spec.type, in: intent.spec) ? index : nil
        }
      if entityIndex == nil, spec.type == .location,
        let place = unknownPlace(in: analysis)
      {
        explain(place)
        let name = analysis.text.originalText(of: place)
        slots.append(.marker(slot: slotIndex, .location(LocationValue(name: name)), place))
        continue
      }
      guard let entityIndex else {
        if spec.isRequired {
          missing.append(spec.name)
          let misfit =
            candidateIndex != nil
            || (spec.isAbsolute
              && analysis.entities.contains { $0.type == spec.type || $0.type == .duration })
          let penalty =
            misfit || patternMatch == nil ? Self.unsupportedSlotPenalty : Self.missingSlotPenalty
          score -= penalty
          evidence.append(.missingSlot(slot: slotIndex, isText: false, penalty: penalty))
        }
        continue
      }
      explain(analysis.entities[entityIndex].range)
      score += Self.filledSlotBonus
      slots.append(.entity(slot: slotIndex, entity: entityIndex))
      evidence.append(.entity(index: entityIndex, slot: slotIndex, bonus: Self.filledSlotBonus))
    }

    if leansOnCorrection,
      !slots.contains(where: { if case .entity = $0 { true } else { false } })
    {
      return nil
    }

    // Coverage: how much of the utterance this intent's evidence explains. A full pattern match
    // explains all of it, and only its `{text}` part is payload; otherwise the payload is what
    // the evidence leaves unexplained, and counts as partly explained.
    evidenceRanges.sort { $0.lowerBound < $1.lowerBound }
    var explainedLength = analysis.explainedLength(bySorted: evidenceRanges)
    if patternMatch != nil, tailStart == nil { explainedLength = analysis.contentLength }
    if let textSlotIndex {
      let textSlot = intent.spec.slots[textSlotIndex]
      var payload: Range<Int>?
      if let patternMatch {
        if let range = patternMatch.capture(named: textSlot.name) {
          payload = PayloadText.trimmedWindow(range, in: analysis.text)
        }
        // A time that fills its own slot is no title as well ("cancel my 5pm reminder").
        if let captured = payload,
          slots.contains(where: {
            if case .entity(_, let entity) = $0 {
              analysis.entities[entity].range == captured
            } else {
              false
            }
          })
        {
          payload = nil
        }
        if tailStart != nil, payload != nil {
          let residual = analysis.contentLength - explainedLength
          explainedLength += Int(Double(residual) * Self.payloadCredit)
        }
      } else if let run = Self.longestResidual(analysis, removing: evidenceRanges) {
        // Without a pattern, what the evidence leaves unexplained may be the payload, and counts
        // as partly explained. It fills a required text slot (the longest stretch, politeness
        // trimmed off); an optional text slot is filled only by a pattern.
        let residual = analysis.contentLength - explainedLength
        explainedLength += Int(Double(residual) * Self.payloadCredit)
        if textSlot.isRequired {
          payload = PayloadText.trimmedWindow(run, in: analysis.text)
        }
      }
      if textSlot.isShort, let whole = payload {
        payload = Self.firstSentence(of: whole, in: analysis.text)
      }
      if let payload {
        slots.append(.text(slot: textSlotIndex, payload))
      } else if textSlot.isRequired {
        missing.append(textSlot.name)
        let penalty = patternMatch == nil ? Self.unsupportedSlotPenalty : Self.missingSlotPenalty
        score -= penalty
        evidence.append(.missingSlot(slot: textSlotIndex, isText: true, penalty: penalty))
      }
    }
    // Checked only when nothing else carries the intent: a pattern, a slot's entity or a second
    // keyword group ("stop stop the the timer" names what to stop).
    if patternMatch == nil,
      !slots.contains(where: { if case .entity = $0 { true } else { false } }),
      intent.groups.indices.lazy.filter({ groupHit.contains($0) && intent.groups[$0].weight >= 1 })
        .dropFirst().isEmpty,
      let stutter = Self.stutter(in: analysis)
    {
      score -= Self.stutterPenalty
      evidence.append(.stutter(range: stutter, penalty: Self.stutterPenalty))
    }
    let coverage =
      analysis.contentLength == 0
      ? 0 : min(1, Double(explainedLength) / Double(analysis.contentLength))
    let coverageScore = Self.coverageWeight * (coverage - 0.85)
    score += coverageScore
    evidence.append(.coverage(share: coverage, score: coverageScore))
    return Candidate(
      intent: intentIndex, score: score, evidence: evidence, slots: slots, missingSlots: missing,
      captures: patternMatch?.captureRanges ?? [])
  }

  /// Two words in a row that are the same word of two or more letters ("天气天气", "the the"),
  /// as their joint range.
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

  /// Whether a time fits a slot when the intent has both a `datetime` and a `date` slot: a day
  /// without a clock time ("tomorrow's reminders") is a date, a time of day is a datetime.
  static func fitsGrain(_ entity: Entity, _ type: EntityType, in spec: IntentSpec) -> Bool {
    guard type == .datetime || type == .date, case .datetime(let value) = entity.value else {
      return true
    }
    let isDay = value.grain == .day || value.grain == .week || value.grain == .month
    switch type {
    case .datetime: return !isDay || !spec.slots.contains { $0.type == .date }
    default: return isDay || !spec.slots.contains { $0.type == .datetime }
    }
  }

  /// The entity to fill a slot of `type`: the longest, then the earliest.
  private func bestEntity(for type: EntityType, absolute: Bool, _ analysis: Analysis) -> Int? {
    var best: Int?
    for (index, entity) in analysis.entities.enumerated()
    where (entity.type == type || (type == .date && entity.type == .datetime))
      && !(absolute && Self.isRelative(index, in: analysis.entities))
    {
      guard let current = best else {
        best = index
        continue
      }
      if entity.range.count > analysis.entities[current].range.count { best = index }
    }
    return best
  }

  /// Whom the utterance opens by speaking to, or nil when it does not open by naming someone.
  ///
  /// The whole first clause, after any fillers, is a word of address: a listed vocative
  /// ("hey mom, …"), a Chinese name in address ("小王，…"), or one capitalised word the grammars do
  /// not know when the rest speaks to "you" ("Tom, can you jot down …").
  func addressee(
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

  /// A word of address that makes up a clause of its own later in the utterance ("take note,
  /// class, this will be on the exam"), or nil.
  static func vocativeClause(_ vocatives: [Range<Int>], in text: NormalizedText) -> Range<Int>? {
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

  /// The first offset from `start` that is neither a space nor the start of a filler ending by
  /// `limit`: where the words after any politeness begin ("hey, please | …").
  static func pastPoliteness(
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

  /// The opening of speech the user passes on to someone named, or nil.
  ///
  /// "跟阿杰讲 …", "告诉小王 …", "tell jake …", "let mike know …": what follows is for them, not a
  /// command for us; "告诉我 …" and "tell me …" ask us.
  func relayed(
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

  /// Spans of the original text inside paired quotes or title marks, when something stands
  /// outside them: a sentence that is all one quotation is still said.
  static func quotedSpans(in original: [Unicode.Scalar]) -> [Range<Int>] {
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
  static func asksYou(_ words: ArraySlice<Unicode.Scalar>) -> Bool {
    let rest = words.drop { $0 == " " }
    guard rest.count < words.count || rest.first.map({ $0.value >= 0x3400 }) == true else {
      return false
    }
    return questionsToYou.contains { rest.starts(with: $0) }
  }

  private static let questionsToYou: [[Unicode.Scalar]] = [
    "can you ", "can u ", "could you ", "could u ", "will you ", "would you ", "can ya ",
    "你能不能", "你可以", "你能", "你帮我", "你记得",
  ].map { Array($0.unicodeScalars) }

  private static let secondPerson: Set<[Unicode.Scalar]> = Set(
    ["you", "your", "u", "ya"].map { Array($0.unicodeScalars) })

  /// A short payload up to its first break between two Chinese words, without a leading 那个 / 这个.
  ///
  /// What follows is an aside ("收衣服 要得不", "交网课作业，不然就寄了"). An enumeration comma
  /// (买牛奶、鸡蛋) and a break beside Latin text ("交 report") do not end it.
  static func firstSentence(of payload: Range<Int>, in text: NormalizedText) -> Range<Int>? {
    let scalars = text.scalars
    // A short name does not open with a demonstrative: "那个煮鸡蛋的计时" names "煮鸡蛋".
    var payload = payload
    if payload.count > 3, scalars[payload.lowerBound + 1] == "个",
      scalars[payload.lowerBound] == "那" || scalars[payload.lowerBound] == "这",
      let rest = PayloadText.trimmedWindow(payload.lowerBound + 2..<payload.upperBound, in: text)
    {
      payload = rest
    }
    // A break needs a scalar on each side inside the payload; a payload of one or two scalars
    // after the first break has none ("ok, remind me at 5pm to b").
    guard let first = text.firstClauseBreak, first < payload.upperBound,
      max(payload.lowerBound + 1, first) < payload.upperBound - 1
    else { return payload }
    for index in max(payload.lowerBound + 1, first)..<(payload.upperBound - 1)
    where scalars[index] == " " && scalars[index - 1].value >= 0x3400
      && scalars[index + 1].value >= 0x3400 && text.isClauseBreak(at: index)
      && !text.originalText(of: index..<index + 1).contains("、")
    {
      return PayloadText.trimmedWindow(payload.lowerBound..<index, in: text)
    }
    return payload
  }

  /// Whether an entity is a duration under a day, the length a countdown timer runs.
  static func isShort(_ entity: Entity) -> Bool {
    guard case .duration(let seconds) = entity.value else { return true }
    return seconds < 86_400
  }

  /// Whether entity `index` is a datetime given as an offset from now.
  ///
  /// Such a datetime contains a duration ("十分钟后", "in 10 minutes"). There are few entities,
  /// so this is asked when a slot needs it, not stored.
  static func isRelative(_ index: Int, in entities: [Entity]) -> Bool {
    guard entities[index].type == .datetime else { return false }
    let range = entities[index].range
    return entities.contains { $0.type == .duration && range.contains($0.range.lowerBound) }
  }

  /// Whether free text is short enough to name a timer or item rather than tell a situation:
  /// at most four scalars, not ending in a sentence particle ("泡面", not "算了").
  private static func isShortName(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
    guard text.count <= 4, let last = text.last else { return false }
    return !"了吧啊呢呀嘛".unicodeScalars.contains(last)
  }

  private func makeMatcher(_ analysis: Analysis) -> PatternMatcher {
    let scalars = analysis.text.scalars
    // Entities come sorted by start, then end; within one start the matcher wants the longest
    // first, so each run of equal starts is reversed.
    var entityOrder: [Int] = []
    entityOrder.reserveCapacity(analysis.entities.count)
    var runStart = 0
    while runStart < analysis.entities.count {
      var runEnd = runStart + 1
      let lower = analysis.entities[runStart].range.lowerBound
      while runEnd < analysis.entities.count, analysis.entities[runEnd].range.lowerBound == lower {
        runEnd += 1
      }
      entityOrder.append(contentsOf: (runStart..<runEnd).reversed())
      runStart = runEnd
    }
    var fillerEnds = [Int](filledWith: -1, count: scalars.count)
    for filler in analysis.fillers where filler.lowerBound < scalars.count {
      fillerEnds[filler.lowerBound] = max(fillerEnds[filler.lowerBound], filler.upperBound)
    }
    // Trim fillers and spaces off both ends.
    var lower = 0
    var upper = scalars.count
    var moved = true
    while moved {
      moved = false
      while lower < upper, scalars[lower] == " " { lower += 1 }
      while upper > lower, scalars[upper - 1] == " " { upper -= 1 }
      if lower < upper, fillerEnds[lower] > lower, fillerEnds[lower] <= upper {
        lower = fillerEnds[lower]
        moved = true
      }
      if let filler = analysis.fillers.first(where: {
        $0.upperBound == upper && $0.lowerBound >= lower
      }) {
        upper = filler.lowerBound
        moved = true
      }
    }
    return PatternMatcher(
      scalars: scalars, entities: analysis.entities,
      entityOrder: entityOrder,
      fillerEnds: fillerEnds, boundaries: analysis.boundaries,
      contentBefore: analysis.contentBefore,
      bounds: lower..<max(lower, upper), budget: analysis.matchBudget ?? MatchBudget())
  }

  /// The longest stretch of text outside `removed`, with fillers and conjunctions trimmed off its
  /// ends (function words stay: "要交的材料" keeps its "要").
  static func longestResidual(_ analysis: Analysis, removing removed: [Range<Int>]) -> Range<Int>? {
    // `removed` is sorted by start: the gaps between its runs, and after the last, are the text.
    let count = analysis.text.scalars.count
    var best: Range<Int>?
    var position = 0
    for range in removed {
      let gapEnd = min(max(range.lowerBound, 0), count)
      if gapEnd - position > (best?.count ?? 0) { best = position..<gapEnd }
      position = max(position, min(range.upperBound, count))
    }
    if count - position > (best?.count ?? 0) { best = position..<count }
    guard var run = best else { return nil }
    // Fillers, then conjunctions, without joining them into a new array.
    func edge(where matches: (Range<Int>) -> Bool) -> Range<Int>? {
      analysis.fillers.first(where: matches) ?? analysis.conjunctions.first(where: matches)
    }
    var moved = true
    while moved, !run.isEmpty {
      moved = false
      while run.lowerBound < run.upperBound, analysis.text.scalars[run.lowerBound] == " " {
        run = (run.lowerBound + 1)..<run.upperBound
      }
      while run.upperBound > run.lowerBound, analysis.text.scalars[run.upperBound - 1] == " " {
        run = run.lowerBound..<(run.upperBound - 1)
      }
      if let edge = edge(where: {
        $0.lowerBound == run.lowerBound && $0.upperBound <= run.upperBound
      }) {
        run = edge.upperBound..<run.upperBound
        moved = true
      } else if let edge = edge(where: {
        $0.upperBound == run.upperBound && $0.lowerBound >= run.lowerBound
      }) {
        run = run.lowerBound..<edge.lowerBound
        moved = true
      }
    }
    return run.isEmpty ? nil : run
  }

  @inline(__always)
  static func isASCIIWord(_ s: Unicode.Scalar) -> Bool {
    Tokenizer.isASCIILetter(s.value) || Tokenizer.isASCIIDigit(s.value)
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
  var asks = false
  var selfMentions: [Range<Int>] = []
  var markers = ListMarkers()
  var placeFollowers: [Range<Int>] = []

  init(roles: [EntryRole], tokenCount: Int) {
    self.roles = roles
    // Room for a word per token, so the arrays most parses fill are allocated once, not grown.
    hits.reserveCapacity(tokenCount + 4)
    functionWords.reserveCapacity(tokenCount)
  }

  mutating func found(_ range: Range<Int>, _ entry: Int32) {
    let role = roles[Int(entry)]
    if role.isEmpty { return }
    if role.contains(.keyword) { hits.append(KeywordHit(range: range, entry: entry)) }
    if role.contains(.filler) { fillers.append(range) }
    if role.contains(.conjunction) { conjunctions.append(range) }
    if role.contains(.functionWord) { functionWords.append(range) }
    if role.contains(.vocative) { vocatives.append(range) }
    if role.contains(.repair) { repairs.append(range) }
    if role.contains(.abandon) { abandons.append(range) }
    if role.contains(.cutoff), lastCutoff.map({ $0.upperBound < range.upperBound }) ?? true {
      lastCutoff = range
    }
    if role.contains(.questionMarker) { asks = true }
    if role.contains(.selfWord) { selfMentions.append(range) }
    markers.record(range, role)
    if role.contains(.placeFollower) { placeFollowers.append(range) }
  }
}
