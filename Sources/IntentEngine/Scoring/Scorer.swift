/// Scores every intent that has evidence in an utterance; pure and allocation-light.
///
/// The weights are the engine's tuned constants, chosen on the `dev` fixtures; `Calibration`
/// then maps the resulting scores to confidences.
///
/// ## Signals
///
/// Every signal that moves a score, in the order it is taken, with the constants it uses. Each
/// one that adds or takes leaves a record in the candidate's evidence, which `--explain` shows;
/// the correction rule only removes a candidate.
///
/// Before any score, `analyse(…)` (`Scorer+Analysis`) reads the utterance once for all intents:
/// its words, and the readings of the whole utterance (`Scorer+Readings`).
///
/// For each intent (`score(…)`):
/// 1. **Keywords** (group weights, ``typoDiscount``; `Scorer+Keywords`): each keyword group said
///    adds its weight once, a misspelt word a share of it, since the words name the intent.
/// 2. **Pattern** (``patternBonus``, ``capturePatternBonus``, ``tailPatternBonus``, tried from
///    ``minimumPatternWeight``; `Scorer+Patterns`): a sentence of a known shape is the strongest
///    evidence, less so with free text or when it fits only the last clause.
/// 3. **Excludes** (exclude weights, ``payloadExcludeShare``, ``payloadVetoPenalty``;
///    `Scorer+Excludes`): words against the intent cost their weight, less inside its free text,
///    where they may be the user's own words, nothing when a whole-sentence pattern spells them;
///    a veto outside it ends the intent, unless it lies in context after a first clause the
///    intent's pattern fits and is no other intent's keyword ("stop the timer, the smoke alarm's
///    going off"): then that clause is read alone.
/// 4. **Weak evidence** (``weakEvidencePenalty`` below ``strongEvidenceWeight``): question words
///    and possessives alone do not make a command unless a pattern matched.
/// 5. **Slots** (``filledSlotBonus``, ``missingSlotPenalty``, ``unsupportedSlotPenalty``;
///    `Scorer+Slots`): a value said for the intent supports it; a required slot left empty costs
///    only when no pattern carries the intent or the value said cannot fill it.
/// 6. **Correction rule** (no weight; `KeywordReading.leansOnCorrection`): keywords that rest on
///    spelling corrections alone, or a required group met only by a real word one edit from its
///    keyword ("time" for "timer"), make no candidate unless a slot's value backs them; a slip
///    that is no word ("timmer") beside a keyword spelt right counts, and so does one in a whole
///    sentence of the intent's shape that says more than the slip ("题醒我去拿干洗的衣服").
/// 7. **Payload** (``payloadCredit``; `Scorer+Coverage`): the free text a text slot takes counts as
///    partly explained, and a required text slot without one costs like any missing slot.
/// 8. **Stutter** (``stutterPenalty``; `Scorer+Readings`): a word said twice running, with one
///    keyword and nothing else to go on, is speech that did not come out.
/// 9. **Coverage** (``coverageWeight``, ``coverageCentre``; `Scorer+Coverage`): the share of the
///    utterance the intent's evidence explains, since a command explains most of what was said.
///
/// Across the candidates (`candidates(for:touched:)`), after each is scored:
/// - **Broken off** (``cutoffPenalty``): an utterance that ends on a word no sentence ends on was
///   never finished, so every intent loses.
/// - **Said to someone else** (``addresseePenalty``; `Scorer+Readings`): an utterance that names
///   whom it is said to, or passes words on to someone, holds no command for the engine.
/// - **Inside another's payload** (``insidePayloadPenalty``): keywords that all lie in another
///   intent's captured free text are that text, not a command of their own.
/// - **The winner's last clause** (``tailPatternBonus``): a winner without a full pattern is
///   scored again with a pattern for its last clause, after context, and the better score stands.
/// - **The winner's first clause** (``tailPatternBonus``, ``payloadCredit``): a winner still
///   without a pattern is scored again with a pattern for its first clause, ended by punctuation
///   or before a word that opens a new clause ("… tomorrow i got a flight to catch"); the context
///   after it is partly explained, its excludes count as the user's own words, and the better
///   score stands.
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
  /// Weight of coverage: the share of the utterance explained by the intent's evidence, taken
  /// from ``coverageCentre``.
  static let coverageWeight = 10.0
  /// The share of the utterance explained that neither helps nor hurts: explaining less costs.
  static let coverageCentre = 0.85
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

  /// Scores every intent with at least one keyword in the utterance, best first.
  ///
  /// `touched` is ``targetedHits(in:)`` of the same analysis.
  func candidates(for analysis: Analysis, touched: [TargetedHit]) -> [Candidate] {
    var result: [Candidate] = []
    guard !touched.isEmpty else { return result }
    let matcher = makeMatcher(analysis)
    // What each intent explains, in one buffer that every scoring below reuses.
    var explained: [Range<Int>] = []
    explained.reserveCapacity(2 * touched.count + 8)
    Self.forEachIntent(in: touched) { intentIndex, group in
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
    if result.count > 1 { takeInsidePayload(from: &result, touched) }
    result.sort { ($0.score, $1.intent) > ($1.score, $0.intent) }
    rescoreLastClause(of: &result, touched, analysis, matcher, explaining: &explained)
    rescoreFirstClause(of: &result, touched, analysis, matcher, explaining: &explained)
    return result
  }

  /// Every keyword, exclude and entity hit paired with the intent it speaks for, grouped by
  /// intent in intent order: a sort of a small array, no dictionary.
  func targetedHits(in analysis: Analysis) -> [TargetedHit] {
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
    Self.groupByIntent(&touched)
    return touched
  }

  /// Calls `body` with each intent of `touched`, grouped by intent, and the range of its hits.
  @inline(__always)
  static func forEachIntent(
    in touched: [TargetedHit], _ body: (_ intent: Int, _ hits: Range<Int>) -> Void
  ) {
    var start = 0
    while start < touched.count {
      let intent = touched[start].target.intent
      var end = start + 1
      while end < touched.count, touched[end].target.intent == intent { end += 1 }
      body(Int(intent), start..<end)
      start = end
    }
  }

  /// Whether the utterance holds a word that is neither a corrected keyword among `hits` nor
  /// politeness.
  private static func saysMore(than hits: ArraySlice<TargetedHit>, in analysis: Analysis) -> Bool {
    analysis.text.scalars.indices.contains { index in
      analysis.text.scalars[index] != " "
        && !hits.contains { $0.hit.isCorrected && $0.hit.range.contains(index) }
        && !analysis.fillers.contains { $0.contains(index) }
    }
  }

  /// Orders hits by intent, then by where they sit, keeping the order of equal ones.
  ///
  /// An insertion sort in place: the hits of one utterance are a few dozen, and the standard
  /// sort's comparison closure over a tuple cost more than the moves.
  static func groupByIntent(_ hits: inout [TargetedHit]) {
    hits.withUnsafeMutableBufferPointer { buffer in
      guard buffer.count > 1 else { return }
      for index in 1..<buffer.count {
        let hit = buffer[index]
        var slot = index
        while slot > 0, precedes(hit, buffer[slot - 1]) {
          buffer[slot] = buffer[slot - 1]
          slot -= 1
        }
        buffer[slot] = hit
      }
    }
  }

  @inline(__always)
  private static func precedes(_ a: TargetedHit, _ b: TargetedHit) -> Bool {
    if a.target.intent != b.target.intent { return a.target.intent < b.target.intent }
    if a.hit.range.lowerBound != b.hit.range.lowerBound {
      return a.hit.range.lowerBound < b.hit.range.lowerBound
    }
    return a.hit.range.upperBound < b.hit.range.upperBound
  }

  /// Takes ``insidePayloadPenalty`` from each candidate whose keywords all sit inside another
  /// candidate's captured free text: they are that text, not a command of their own ("记一下
  /// 明天下雨要带伞" is a note, not a weather question).
  private func takeInsidePayload(from result: inout [Candidate], _ touched: [TargetedHit]) {
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

  /// Scores the winner, `result[0]`, again for its last clause when that reads it better.
  ///
  /// The winner without a full pattern may still have one for its last clause, after context;
  /// it is looked for once, for the winner alone, and counts as weaker evidence. Its full
  /// patterns have already failed and are not tried again. A winner whose free text opens the
  /// sentence and runs over a clause break takes the last clause's slots.
  private func rescoreLastClause(
    of result: inout [Candidate], _ touched: [TargetedHit], _ analysis: Analysis,
    _ matcher: PatternMatcher, explaining explained: inout [Range<Int>]
  ) {
    if let best = result.first, grammar.intents[best.intent].hasTextSlot,
      !best.hasPattern,
      var refined = score(
        best.intent, touched[best.hits], analysis, matcher, explaining: &explained,
        reach: .lastClause)
    {
      // Penalties set against the other candidates above hold for the refined score too.
      carryPenalties(of: best, to: &refined)
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
        reach: .lastClause),
      refined.hasPattern
    {
      // Free text that opens the sentence and runs over or up to a clause break has swallowed
      // context ("鸡蛋已经好了 把煮鸡蛋的倒计时取消吧", "面膜敷上了 计时15分钟"): the last clause's own
      // match names it better. A short name set apart is still a name ("泡面 3分钟 计时").
      result[0].slots = refined.slots
      result[0].missingSlots = refined.missingSlots
    }
  }

  /// Scores the winner, `result[0]`, again for its first clause when that reads it better.
  ///
  /// A winner without a pattern may be a command said before context ("do I need an umbrella,
  /// I'm heading out", "今天步数达标了没，目标八千"): a pattern for its first clause pins the slots
  /// and counts as weaker evidence, and the context counts as partly explained, like free text.
  private func rescoreFirstClause(
    of result: inout [Candidate], _ touched: [TargetedHit], _ analysis: Analysis,
    _ matcher: PatternMatcher, explaining explained: inout [Range<Int>]
  ) {
    guard let best = result.first, !best.hasPattern,
      analysis.text.firstClauseBreak != nil || !analysis.clauseOpeners.isEmpty,
      // Scored only when a pattern fits the first clause.
      var refined = score(
        best.intent, touched[best.hits], analysis, matcher, explaining: &explained,
        reach: .firstClause)
    else { return }
    carryPenalties(of: best, to: &refined)
    if refined.score > best.score { result[0] = refined }
  }

  /// Takes from `refined` the penalties set against every candidate that `best` carries.
  private func carryPenalties(of best: Candidate, to refined: inout Candidate) {
    for record in best.evidence {
      switch record {
      case .insidePayload(_, let penalty), .addressedToOther(_, let penalty),
        .brokenOff(_, let penalty):
        refined.score -= penalty
        refined.evidence.append(record)
      default: continue
      }
    }
  }

  /// Scores one intent on the utterance: the signals of the table above, in order; nil when it is
  /// no candidate.
  ///
  /// `evidenceRanges` is a buffer reused for every intent: it gathers the ranges this intent
  /// explains (its keywords, then the values that fill its slots).
  private func score(
    _ intentIndex: Int, _ hits: ArraySlice<TargetedHit>, _ analysis: Analysis,
    _ matcher: PatternMatcher, explaining evidenceRanges: inout [Range<Int>],
    reach: PatternReach = .wholeSentence
  ) -> Candidate? {
    // An intent that only its excludes name ("music" for every built-in intent) is no candidate:
    // it is left before anything is allocated.
    guard hits.contains(where: { $0.target.kind == .group }) else { return nil }
    let intent = grammar.intents[intentIndex]
    // Capacities cover the usual case, so the arrays are allocated once, not grown.
    var evidence: [EvidenceRecord] = []
    evidence.reserveCapacity(hits.count + 6)
    var score = 0.0
    evidenceRanges.removeAll(keepingCapacity: true)

    // Keywords: the weight of each keyword group said for the intent; a required group unsaid
    // ends it.
    guard
      let keywords = readKeywords(
        intent, hits, analysis, evidence: &evidence, explaining: &evidenceRanges)
    else { return nil }
    score += keywords.score
    // Pattern: the sentence's shape pins the slots, and counts as weaker evidence when it fits
    // one clause only.
    let fit = patternFit(
      intent, hits, keywordWeight: keywords.weight, analysis, matcher, reach: reach)
    // A first clause is read again only for its pattern: without one there is nothing to gain.
    if reach == .firstClause, fit == nil { return nil }
    let patternMatch = fit?.match
    // Excludes: words against the intent, at half weight inside its free text; a veto outside
    // it ends the intent. The start is read here: a closure in the count would otherwise
    // capture the whole matcher.
    if let veto = countExcludes(
      keywords.excludeHits, of: intent, analysis, patternMatch: patternMatch,
      wholeSentence: fit.map { !$0.isClauseOnly } ?? false,
      commandStart: fit?.tailStart ?? matcher.bounds.lowerBound, tailStart: fit?.tailStart,
      headEnd: fit?.headEnd,
      score: &score,
      evidence: &evidence)
    {
      // A veto said after the command, in context of its own ("stop the timer, the smoke
      // alarm's going off"), is the user's words: the command's first clause is read alone.
      // One that is another intent's keyword is a second command ("…在的话直接给我取消"), and
      // stands; so does one against keywords too weak to carry a command of their own.
      guard reach == .wholeSentence, fit == nil, let firstBreak = analysis.text.firstClauseBreak,
        veto.range.lowerBound > firstBreak, keywords.weight >= Self.strongEvidenceWeight,
        veto.entry >= 0,
        !grammar.targets[Int(veto.entry)].contains(where: {
          $0.kind == .group && Int($0.intent) != intentIndex
        })
      else { return nil }
      return self.score(
        intentIndex, hits, analysis, matcher, explaining: &evidenceRanges, reach: .firstClause)
    }
    // Weak evidence: question words and possessives alone are not enough, unless the whole
    // sentence has a known shape.
    if keywords.weight < Self.strongEvidenceWeight, patternMatch == nil {
      score -= Self.weakEvidencePenalty
      evidence.append(.weakOnly(penalty: Self.weakEvidencePenalty))
    }
    if let fit {
      let bonus =
        fit.isClauseOnly
        ? Self.tailPatternBonus
        : fit.match.hasCaptures ? Self.capturePatternBonus : Self.patternBonus
      score += bonus
      evidence.append(.pattern(index: fit.index, bonus: bonus))
    }
    // Slots: a bonus per value said for the intent, a penalty per required one missing where
    // nothing else carries the intent.
    var filling = fillSlots(
      intent, analysis, patternMatch: patternMatch, score: &score, evidence: &evidence,
      explaining: &evidenceRanges)
    // Correction rule: a spelling correction alone never makes a command ("what is the time" is
    // not about a timer); a value for one of the slots must back it.
    // A slip that is no word, in a whole sentence of the intent's shape that says more than the
    // slip, is backed by that sentence ("题醒我去拿干洗的衣服"); the slip alone ("天汽") is not.
    if keywords.leansOnCorrection, !filling.hasEntity,
      !keywords.correctedOnlyBySlips || fit == nil || fit?.isClauseOnly == true
        || !Self.saysMore(than: hits, in: analysis)
    {
      return nil
    }
    // Payload: the free text the intent carries fills its text slot and counts as partly
    // explained.
    let explainedLength = fillPayload(
      intent, analysis, fit: fit, filling: &filling, score: &score, evidence: &evidence,
      explaining: &evidenceRanges)
    // Stutter: a word said twice running with one keyword is speech that did not come out.
    // Checked only when nothing else carries the intent: a pattern, a slot's entity or a second
    // keyword group ("stop stop the the timer" names what to stop).
    if patternMatch == nil, !filling.hasEntity,
      intent.groups.indices.lazy.filter({
        keywords.groupHit.contains($0) && intent.groups[$0].weight >= 1
      })
      .dropFirst().isEmpty,
      let stutter = Self.stutter(in: analysis)
    {
      score -= Self.stutterPenalty
      evidence.append(.stutter(range: stutter, penalty: Self.stutterPenalty))
    }
    // Coverage: how much of the utterance the intent's evidence explains.
    let coverage = Self.coverage(explaining: explainedLength, of: analysis)
    score += coverage.score
    evidence.append(.coverage(share: coverage.share, score: coverage.score))
    return Candidate(
      intent: intentIndex, score: score, evidence: evidence, slots: filling.slots,
      missingSlots: filling.missing, captures: patternMatch?.captureRanges ?? [])
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

  @inline(__always)
  static func isASCIIWord(_ s: Unicode.Scalar) -> Bool {
    Tokenizer.isASCIILetter(s.value) || Tokenizer.isASCIIDigit(s.value)
  }
}
