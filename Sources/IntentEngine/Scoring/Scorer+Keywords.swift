extension Scorer {
  /// What an intent's own words in the utterance say: the keyword groups that fired, whether
  /// they rest on spelling corrections, and the excludes that count against it.
  struct KeywordReading {
    /// The fired groups' weights, a misspelt keyword's at a discount.
    var score: Double
    /// The groups that fired, by index.
    var groupHit: SmallIndexSet
    var excludeHits: [TargetedHit]
    /// The fired groups' declared weights, a group met only by a misspelt word at a discount:
    /// what decides whether the evidence is strong and whether patterns are worth trying.
    var weight: Double
    /// Whether every group is met only by corrected words, or a required one only by a real word
    /// read as its keyword.
    ///
    /// Then the sentence must also hold a value for one of the intent's slots. A pattern is not
    /// enough: it matches the corrected word too ("what's the time" has the shape of "what's the
    /// timer"). A slip that is no word ("stop the timmer") needs only another keyword spelt right.
    var leansOnCorrection: Bool
    /// Whether every corrected group was met by a slip that is no word ("remnid", "题醒"): a
    /// sentence of the intent's own shape then backs the keywords as well as a value does.
    var correctedOnlyBySlips: Bool
  }

  /// Reads `hits`, an intent's keywords and excludes, adding a record per fired group to
  /// `evidence` and each keyword's range to `evidenceRanges`; nil when a required group, or every
  /// group, is missing.
  ///
  /// Each group counts once however many of its words appear; an exclude, when
  /// ``countsAgainst(_:_:among:_:)`` says it does.
  func readKeywords(
    _ intent: CompiledIntent, _ hits: ArraySlice<TargetedHit>, _ analysis: Analysis,
    evidence: inout [EvidenceRecord], explaining evidenceRanges: inout [Range<Int>]
  ) -> KeywordReading? {
    // Keyword groups count once each, however many of their words appear.
    var score = 0.0
    var groupHit = SmallIndexSet()
    var spelledRight = SmallIndexSet()
    var realWordRead = SmallIndexSet()
    var excludeHits: [TargetedHit] = []
    for touched in hits {
      let (hit, target) = (touched.hit, touched.target)
      switch target.kind {
      case .group:
        evidenceRanges.append(hit.range)
        if !hit.isCorrected { _ = spelledRight.insert(Int(target.index)) }
        if hit.isRealWord { _ = realWordRead.insert(Int(target.index)) }
        // Fields read in place: a copied group would retain its name.
        if groupHit.insert(Int(target.index)) {
          let declared = intent.groups[Int(target.index)].weight
          let weight = hit.isCorrected ? declared * Self.typoDiscount : declared
          score += weight
          evidence.append(.keyword(hit: hit, group: Int(target.index), weight: weight))
        }
      case .exclude:
        if countsAgainst(touched, intent, among: hits, analysis) { excludeHits.append(touched) }
      }
    }
    guard Self.saysEnough(of: intent, groupHit) else { return nil }
    // A group met only by a misspelt word is weaker evidence, for strength as for score.
    var weight = 0.0
    for index in intent.groups.indices where groupHit.contains(index) {
      let declared = intent.groups[index].weight
      weight += spelledRight.contains(index) ? declared : declared * Self.typoDiscount
    }
    let leansOnCorrection =
      spelledRight.isEmpty
      || intent.groups.indices.contains {
        realWordRead.contains($0) && !spelledRight.contains($0) && intent.groups[$0].isRequired
      }
    let correctedOnlyBySlips = !intent.groups.indices.contains {
      realWordRead.contains($0) && !spelledRight.contains($0)
    }
    return KeywordReading(
      score: score, groupHit: groupHit, excludeHits: excludeHits,
      weight: weight, leansOnCorrection: leansOnCorrection,
      correctedOnlyBySlips: correctedOnlyBySlips)
  }

  /// Whether the groups said (`groupHit`) are enough to make `intent` a candidate: at least one,
  /// and every required one.
  static func saysEnough(of intent: CompiledIntent, _ groupHit: SmallIndexSet) -> Bool {
    !groupHit.isEmpty
      && !intent.groups.indices.contains { intent.groups[$0].isRequired && !groupHit.contains($0) }
  }

  /// Whether an exclude hit of `intent` counts against it: not when it is a slip of a different
  /// word, sits inside a longer filler or keyword, marks a statement in a question, declines
  /// what is running, or is a making word on the wrong side of a question of whether it is done.
  func countsAgainst(
    _ touched: TargetedHit, _ intent: CompiledIntent, among hits: ArraySlice<TargetedHit>,
    _ analysis: Analysis
  ) -> Bool {
    let hit = touched.hit
    // A correction that changes the first letter is a different word, not a slip: "never"
    // is one edit from the exclude "fever", while "emails" and "terribly" are inflections.
    if hit.isCorrected,
      grammar.lexicon.word(hit.entry).unicodeScalars.first
        != analysis.text.scalars[hit.range.lowerBound]
    {
      return false
    }
    // A word inside a longer politeness phrase ("you" in "can you") or inside a longer
    // keyword of this intent ("off" in "kick off") is not an exclude.
    let insideFiller =
      analysis.fillers.contains {
        $0.count > hit.range.count && $0.lowerBound <= hit.range.lowerBound
          && hit.range.upperBound <= $0.upperBound
      }
      || hits.contains {
        $0.target.kind == .group && $0.hit.range.count > hit.range.count
          && $0.hit.range.lowerBound <= hit.range.lowerBound
          && hit.range.upperBound <= $0.hit.range.upperBound
      }
    // Words that mark a statement ("下雨了") say nothing against a question ("下雨了吗").
    let flags = intent.excludeFlags[Int(touched.target.index)]
    let asked = analysis.asks && flags.contains(.statement)
    // "不需要计时了": declining what is running is asking to stop it.
    let changed =
      flags.contains(.decline)
      && grammar.changeWords.follow(hit.range.upperBound, in: analysis.text)
    // "鸡蛋我加到购物清单了没": a making word counts against making only in a question of
    // whether it is done, and against reading only outside one.
    let undone =
      flags.contains(.done)
      ? !grammar.doneQuestions.end(analysis.text)
      : flags.contains(.making) && grammar.doneQuestions.end(analysis.text)
    // "the timers which are running": a relative pronoun after a keyword asks nothing.
    let relative =
      grammar.roles[Int(hit.entry)].contains(.relative)
      && hits.contains {
        $0.target.kind == .group
          && ($0.hit.range.upperBound == hit.range.lowerBound
            || $0.hit.range.upperBound + 1 == hit.range.lowerBound
              && analysis.text.scalars[$0.hit.range.upperBound] == " ")
      }
    // A real word read as a near keyword ("time" as "timer") is that word: no exclude.
    return !insideFiller && !asked && !changed && !undone && !relative && !hit.isMisread
  }
}
