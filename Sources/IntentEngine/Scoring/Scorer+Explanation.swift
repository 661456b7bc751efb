extension Scorer {
  /// Puts a candidate's evidence and slots into words, for the result users see.
  ///
  /// The evidence has room for `extra` more entries (the margin and threshold the engine adds).
  func explain(_ candidate: Candidate, in analysis: Analysis, extra: Int = 0) -> (
    evidence: [Evidence], slots: [FilledSlot]
  ) {
    let intent = grammar.intents[candidate.intent]
    let lexicon = grammar.lexicon
    var evidence: [Evidence] = []
    evidence.reserveCapacity(candidate.evidence.count + extra)
    for record in candidate.evidence {
      evidence.append(worded(record, intent: intent, lexicon: lexicon, in: analysis))
    }
    let slots = candidate.slots.map { fill -> FilledSlot in
      switch fill {
      case .entity(let slot, let index):
        let spec = intent.spec.slots[slot]
        let entity = analysis.entities[index]
        var value = entity.value
        if spec.isSigned, analysis.decreases, case .duration(let seconds) = value {
          value = .duration(seconds: -seconds)
        }
        return FilledSlot(
          name: spec.name, type: spec.type, value: value,
          source: analysis.text.originalText(of: entity.range), note: entity.note)
      case .marker(let slot, let value, let range):
        let spec = intent.spec.slots[slot]
        return FilledSlot(
          name: spec.name, type: spec.type, value: value,
          source: analysis.text.originalText(of: range))
      case .text(let slot, let range):
        let spec = intent.spec.slots[slot]
        let text = analysis.text.originalPhrase(of: range)
        return FilledSlot(name: spec.name, type: .text, value: .text(text), source: text)
      }
    }
    return (evidence, slots)
  }

  /// One piece of evidence in words.
  private func worded(
    _ record: EvidenceRecord, intent: CompiledIntent, lexicon: Lexicon, in analysis: Analysis
  ) -> Evidence {
    switch record {
    case .keyword(let hit, let group, let weight):
      return Evidence(
        kind: .keyword,
        wording: .keyword(
          word: hit.entry >= 0
            ? lexicon.word(hit.entry) : analysis.text.originalText(of: hit.range),
          spelled: hit.isCorrected ? analysis.text.originalText(of: hit.range) : nil,
          group: intent.groups[group].name),
        contribution: weight)
    case .weakOnly(let penalty):
      return Evidence(kind: .keyword, detail: "only weak keywords", contribution: -penalty)
    case .exclude(let entry, let inPayload, let penalty):
      return Evidence(
        kind: .exclude, wording: .exclude(word: lexicon.word(entry), inPayload: inPayload),
        contribution: -penalty)
    case .pattern(let index, let bonus):
      return Evidence(
        kind: .pattern, wording: .pattern(source: intent.patterns[index].source),
        contribution: bonus)
    case .entity(let index, let slot, let bonus):
      let entity = analysis.entities[index]
      return Evidence(
        kind: .entity,
        wording: .entity(
          type: entity.type.rawValue, words: analysis.text.originalText(of: entity.range),
          slot: intent.spec.slots[slot].name, note: entity.note),
        contribution: bonus)
    case .missingSlot(let slot, let isText, let penalty):
      return Evidence(
        kind: .missingSlot,
        wording: .missingSlot(name: intent.spec.slots[slot].name, isText: isText),
        contribution: -penalty)
    case .coverage(let share, let score):
      return Evidence(
        kind: .coverage, wording: .coverage(percent: Int((share * 100).rounded())),
        contribution: score)
    case .addressedToOther(let range, let penalty):
      return against(penalty, "said to someone else ('\(analysis.text.originalText(of: range))')")
    case .brokenOff(let range, let penalty):
      return against(penalty, "breaks off on '\(analysis.text.originalText(of: range))'")
    case .stutter(let range, let penalty):
      return against(penalty, "the words stutter ('\(analysis.text.originalText(of: range))')")
    case .insidePayload(let other, let penalty):
      return against(penalty, "keywords are inside the text of '\(grammar.intents[other].id)'")
    }
  }

  /// Evidence against the intent that no single exclude word names.
  private func against(_ penalty: Double, _ detail: String) -> Evidence {
    Evidence(kind: .exclude, detail: detail, contribution: -penalty)
  }
}

extension Scorer {
  /// Why an utterance was left with no candidate, worded only when read.
  ///
  /// Each intent whose keywords were said and the veto that ruled it out ("health.query ruled out
  /// by 'what time'"), in intent order. A veto its flag kept from counting ("下雨了" in a
  /// question) is no reason and is not named; with no veto met, one note says whether keywords
  /// were said at all. `touched` is ``targetedHits(in:)`` of the same analysis.
  func whyNoCandidate(in analysis: Analysis, touched: [TargetedHit]) -> [Evidence] {
    var notes: [Evidence] = []
    Self.forEachIntent(in: touched) { intentIndex, group in
      let intent = grammar.intents[intentIndex]
      let hits = touched[group]
      var said = SmallIndexSet()
      for hit in hits where hit.target.kind == .group { _ = said.insert(Int(hit.target.index)) }
      guard Self.saysEnough(of: intent, said),
        let veto = hits.first(where: {
          $0.target.kind == .exclude && intent.excludes[Int($0.target.index)] == nil
            && countsAgainst($0, intent, among: hits, analysis)
        })
      else { return }
      notes.append(
        Evidence(
          kind: .note,
          wording: .ruledOut(
            intent: intent.id.rawValue, word: grammar.lexicon.word(veto.hit.entry)),
          contribution: 0))
    }
    guard notes.isEmpty else { return notes }
    let keywordSaid = touched.contains { $0.target.kind == .group }
    return [
      Evidence(
        kind: .note,
        detail: keywordSaid
          ? "no intent has all the keywords it needs here" : "no intent has a keyword here",
        contribution: 0)
    ]
  }
}
