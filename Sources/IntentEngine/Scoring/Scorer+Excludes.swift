extension Scorer {
  /// Takes the penalty of each exclude in `excludeHits` from `score`, recording it in `evidence`;
  /// returns the veto outside the free text that ends the intent, if one does.
  ///
  /// An exclude inside the pattern's free text after `commandStart` counts at
  /// ``payloadExcludeShare`` of its weight (a veto there at ``payloadVetoPenalty``): it may be the
  /// user's own words ("remind me to cancel the gym"). Words of other people inside a task that
  /// has a time, said or still to be asked for, do not count at all, nor does an exclude inside a
  /// value one of the intent's slots can take: "after" in "remind me the day after tomorrow" is
  /// part of the day.
  func countExcludes(
    _ excludeHits: [TargetedHit], of intent: CompiledIntent, _ analysis: Analysis,
    patternMatch: PatternMatcher.Match?, wholeSentence: Bool, commandStart: Int, tailStart: Int?,
    headEnd: Int?,
    score: inout Double, evidence: inout [EvidenceRecord]
  ) -> KeywordHit? {
    // Free text that opens the sentence is its head, not a payload: its excludes count in full
    // ("how many items are on my grocery list"). A command after context ("dog food's almost
    // gone, remind me tonight to order more") has its payload inside the command.
    var payload = (patternMatch?.captureRanges ?? []).filter { $0.lowerBound > commandStart }
    // Context after a first clause the pattern fits is the user's own words too ("wake me at 5
    // tomorrow i got a flight to catch").
    if let headEnd { payload.append(headEnd..<analysis.text.scalars.count) }
    // So is context set apart before a last clause the pattern fits ("上次忘了续费被停机了，所以你
    // 帮我…提醒"); words run into the command ("ask Alexa to wake me") are not context.
    if let tailStart, tailStart > 0, analysis.text.isClauseBreak(at: tailStart - 1) {
      payload.append(0..<tailStart)
    }
    // An exclude lies in the payload only when the payload holds all of it: one that runs into
    // the command's own words ("the tv sleep | timer") names what the command is. Each exclude
    // line counts once, at its strongest, so hits outside the payload go first.
    var excludeCounted = SmallIndexSet()
    // A task set for a time or after a duration, read by the pattern or still to be asked for
    // ("set a reminder to call mom" asks when): its words are the user's. Asked only when a word
    // of others lies in the payload.
    func isTaskAtTime() -> Bool {
      guard let patternMatch else { return false }
      return intent.spec.slots.contains {
        $0.type != .text && ($0.isRequired || patternMatch.entity(forSlot: $0.name) != nil)
      }
    }
    for countingPayload in [false, true] {
      for excluded in excludeHits {
        let (hit, index) = (excluded.hit, Int(excluded.target.index))
        let inPayload = payload.contains {
          $0.contains(hit.range.lowerBound) && hit.range.upperBound <= $0.upperBound
        }
        // Each hit is counted in one of the two passes: asked about its value only there.
        // A statement word counts inside a value too: "walking" fills the metric, and said as
        // what one is doing ("walking now") asks for no figure.
        guard inPayload == countingPayload,
          intent.excludeFlags[index].contains(.statement)
            || !isInsideSlotValue(hit.range, of: intent, analysis)
        else { continue }
        let penalty: Double
        if wholeSentence, intent.excludes[index] != nil,
          isSpelledByPattern(hit.range, patternMatch, analysis)
        {
          // The sentence's known shape says this word itself ("did i add eggs to the list"): it
          // is the pattern's word, not one against the intent.
          continue
        } else if inPayload, intent.excludeFlags[index].contains(.others), isTaskAtTime() {
          // Other people and other business are what tasks are about ("remind me tonight to
          // text Alex back").
          continue
        } else if let declared = intent.excludes[index] {
          let inTask =
            inPayload
            && !(intent.excludeFlags[index].contains(.final) && endsClause(hit.range, analysis))
          penalty = inTask ? declared * Self.payloadExcludeShare : declared
        } else {
          guard inPayload,
            !(intent.excludeFlags[index].contains(.final) && endsClause(hit.range, analysis))
          else { return hit }
          penalty = Self.payloadVetoPenalty
        }
        guard excludeCounted.insert(index) else { continue }
        score -= penalty
        evidence.append(.exclude(entry: hit.entry, inPayload: inPayload, penalty: penalty))
      }
    }
    return nil
  }

  /// Whether only politeness (吧, 啊, 谢谢) lies between `range` and the end of its clause.
  private func endsClause(_ range: Range<Int>, _ analysis: Analysis) -> Bool {
    var end = range.upperBound
    while let filler = analysis.fillers.first(where: { $0.lowerBound == end }) {
      end = filler.upperBound
    }
    return end == analysis.text.scalars.count || analysis.text.isClauseBreak(at: end)
  }

  /// Whether a whole-sentence match spells the words at `range` itself: they meet none of its
  /// free text and no politeness word, so they are among its literal words.
  private func isSpelledByPattern(
    _ range: Range<Int>, _ match: PatternMatcher.Match?, _ analysis: Analysis
  ) -> Bool {
    guard let match else { return false }
    return !match.bindings.contains { $0.entity == nil && $0.range.overlaps(range) }
      && !analysis.fillers.contains { $0.overlaps(range) }
  }

  /// Whether `range` lies inside an entity that one of the intent's slots can take (for an
  /// absolute slot, a time not given as an offset from now).
  private func isInsideSlotValue(
    _ range: Range<Int>, of intent: CompiledIntent, _ analysis: Analysis
  ) -> Bool {
    for (index, entity) in analysis.entities.enumerated()
    where entity.range.lowerBound <= range.lowerBound && range.upperBound <= entity.range.upperBound
      && entity.range.count >= range.count
    {
      let fits = intent.spec.slots.contains {
        Self.canFill($0.type, absolute: $0.isAbsolute, with: index, in: analysis.entities)
      }
      if fits { return true }
    }
    return false
  }
}
