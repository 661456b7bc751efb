import Foundation

/// How an utterance that is not one plain command is read: split into several commands, as a
/// command after context, or as a command before an aside; each reading holds only when its
/// parts are confident. The constants that tune them are with the engine's.
extension Engine {
  /// Classifies normalised text as one command, or as several when it splits cleanly.
  func parseClause(
    _ normalized: NormalizedText, context: ParseContext, budget: MatchBudget
  ) -> ParseResult {
    let analysis = analyse(normalized, context: context, budget: budget)
    // "set a timer for uh… never mind": dropped at the end, nothing before is a command.
    if let dropped = analysis.abandons.last,
      Scorer.isOnlyPoliteness(
        after: dropped.upperBound, fillers: analysis.fillers, in: analysis.text.scalars)
    {
      return parseClause(normalize(""), context: context, budget: budget).standing(
        for: normalized, note: "'\(normalized.string(in: dropped))' drops what came before")
    }
    // "no wait, cancel the timer": what follows a self-correction replaces what came before.
    if let repair = analysis.repairs.last {
      return corrected(at: repair, analysis, context: context, budget: budget)
    }
    var clauses: [ParseResult] = []
    if !analysis.conjunctions.isEmpty || analysis.text.firstClauseBreak != nil {
      clauses = split(analysis, context: context, budget: budget, depth: 1) ?? []
    }
    // Commands of different intents stand however the whole would read: it is not scored.
    if clauses.count > 1, clauses.contains(where: { $0.intent != clauses[0].intent }) {
      return joined(clauses, for: normalized)
    }
    let whole = result(for: analysis)
    guard clauses.count > 1, !restates(whole, in: clauses) else {
      return commandAfterContext(whole, analysis, context: context, budget: budget)
        ?? commandBeforeAside(whole, analysis, context: context, budget: budget) ?? whole
    }
    return joined(clauses, for: normalized)
  }

  /// The reading of a self-correction: what follows it, when that is a command of its own ("no
  /// wait, cancel the timer"); else what follows it in place of the last detail before it ("remind
  /// me at 3, no wait, 3:30 to move the car", "定个十分钟的，不对，十五分钟吧").
  private func corrected(
    at repair: Range<Int>, _ analysis: Analysis, context: ParseContext, budget: MatchBudget
  ) -> ParseResult {
    let normalized = analysis.text
    let rest = normalized.originalText(of: repair.upperBound..<normalized.scalars.count)
    let note = "read what follows the correction '\(normalized.string(in: repair))'"
    let restText = normalize(rest)
    let alone = parseClause(restText, context: context, budget: budget)
    guard alone.route != .local,
      let detail = analysis.entities.last(where: { $0.range.upperBound <= repair.lowerBound })
    else { return alone.standing(for: normalized, note: note) }
    var replacement = rest
    // A correction that is only a number takes the unit after the number it corrects.
    if let number = restText.numbers.first, number.range.lowerBound == 0,
      restText.scalars[number.range.upperBound...].allSatisfy({
        !Tokenizer.isWordScalar($0.value)
      }),
      let corrected = normalized.numbers.last(where: { detail.range.contains($0.range.lowerBound) }
      ),
      corrected.range.upperBound < detail.range.upperBound
    {
      replacement =
        restText.originalText(of: number.range)
        + normalized.originalText(of: corrected.range.upperBound..<detail.range.upperBound)
    }
    let head = normalized.originalText(of: 0..<detail.range.lowerBound)
    let joined = parseClause(normalize(head + replacement), context: context, budget: budget)
    guard joined.route == .local else { return alone.standing(for: normalized, note: note) }
    return joined.standing(
      for: normalized,
      note: "read '\(replacement.trimmingCharacters(in: Self.notWords))' in place of "
        + "'\(normalized.string(in: detail.range))'")
  }

  /// Spaces and punctuation, trimmed from words quoted in a note.
  private static let notWords = CharacterSet.whitespacesAndNewlines.union(.punctuationCharacters)

  /// The result for several commands: the first one's fields, with every command in `clauses`.
  private func joined(_ clauses: [ParseResult], for normalized: NormalizedText) -> ParseResult {
    var result = clauses[0]
    result.text = normalized.original
    result.normalizedText = normalized.string
    result.clauses = clauses
    return result
  }

  /// The command in the last clause after context ("pasta just hit the water, eleven minutes
  /// please", "洗衣机刚转上 二十分钟后提醒我把衣服晾了"), when the whole is not confident.
  ///
  /// The clause must be confidently an intent on its own, and the context may hold none of that
  /// intent's strong excludes (vetoes, and penalties of `contextExcludePenalty` or more):
  /// "我老公说 今天走了多少步" stays someone else's question.
  private func commandAfterContext(
    _ whole: ParseResult, _ analysis: Analysis, context: ParseContext, budget: MatchBudget
  ) -> ParseResult? {
    guard whole.route != .local, analysis.addressee == nil, analysis.text.firstClauseBreak != nil
    else { return nil }
    let text = analysis.text
    var tried = 0
    var position = text.scalars.count - 1
    while position > 0, tried < Self.contextClausesTried {
      defer { position -= 1 }
      guard text.isClauseBreak(at: position) else { continue }
      tried += 1
      // Only a clause with a main keyword or an entity of its own can be a command: most
      // clauses are not worth classifying.
      let start = position + 1
      let hasEntity = analysis.entities.contains(where: { $0.range.lowerBound >= start })
      guard hasEntity || hasMainKeyword(analysis, where: { $0.lowerBound >= start }) else {
        continue
      }
      // Nor is one whose every intent the context argues against.
      if !hasEntity,
        allArgued(analysis, clauseStart: start, contextEnd: position)
      {
        continue
      }
      let command = text.originalText(of: position + 1..<text.scalars.count)
      guard !command.isEmpty else { continue }
      var (result, _) = classify(normalize(command), context: context, budget: budget)
      guard let id = result.intent,
        let intent = grammar.intents.firstIndex(where: { $0.spec.id == id })
      else { continue }
      // Slots the clause leaves empty may be named in the context ("flying to Hangzhou on
      // saturday, what's the weather there"): the nearest fitting entity's words are read again
      // in front of the clause.
      var carried: [String] = []
      for slot in grammar.intents[intent].spec.slots
      where slot.type != .text && !result.slots.contains(where: { $0.name == slot.name }) {
        if let entity = analysis.entities.last(where: {
          $0.range.upperBound <= position
            && ($0.type == slot.type || (slot.type == .date && $0.type == .datetime))
        }) {
          carried.append(text.originalText(of: entity.range))
        }
      }
      if !carried.isEmpty {
        let words = carried.joined(separator: " ")
        let (withContext, _) = classify(
          normalize(words + " " + command), context: context, budget: budget)
        if withContext.intent == id, isConfident(withContext) {
          result = withContext
          result.explanation.append(
            Evidence(
              kind: .note, detail: "'\(words)' carried over from the context", contribution: 0))
        }
      }
      guard isConfident(result) else { continue }
      // Others named in the context (people, devices, other business) do not make a command
      // about the user someone else's.
      let aboutUser = analysis.selfMentions.contains { $0.lowerBound > position }
      guard
        !argues(
          analysis.hits.lazy.filter { $0.range.upperBound <= position }, against: intent,
          sparingPeople: aboutUser)
      else { return nil }
      return result.standing(
        for: text, note: "read the last clause; '\(text.originalText(of: 0..<position))' is context"
      )
    }
    return nil
  }

  /// The command in the first clause when what follows is an aside that names nothing the
  /// grammars know ("闹钟定在明早5点半 要赶火车", "把倒数关掉 宝宝醒了"), when the whole is not
  /// confident.
  ///
  /// The aside may hold no keyword, exclude or entity of any intent: "set a timer for 10 minutes,
  /// actually make it 15" is not read as its first clause.
  private func commandBeforeAside(
    _ whole: ParseResult, _ analysis: Analysis, context: ParseContext, budget: MatchBudget
  ) -> ParseResult? {
    guard analysis.addressee == nil, whole.route != .local || namesByResidue(whole) else {
      return nil
    }
    let text = analysis.text
    guard let position = text.firstClauseBreak,
      !analysis.hits.contains(where: { $0.range.upperBound > position && !isMildExclude($0) }),
      !analysis.entities.contains(where: { $0.range.upperBound > position }),
      hasMainKeyword(analysis, where: { $0.upperBound <= position })
    else { return nil }
    let command = text.originalText(of: 0..<position)
    let (result, _) = classify(normalize(command), context: context, budget: budget)
    guard isConfident(result) else { return nil }
    // A confident whole gives way only to the same command read by a sentence pattern.
    if whole.route == .local {
      guard result.intent == whole.intent,
        result.explanation.contains(where: { $0.kind == .pattern })
      else { return nil }
    }
    let aside = text.originalText(of: position + 1..<text.scalars.count)
    return result.standing(for: text, note: "read the first clause; '\(aside)' is an aside")
  }

  /// Whether a word is only ever a penalty against intents, never a keyword or a veto: another
  /// domain's word ("early flight", "my sister's driving there") in an aside.
  ///
  /// A misspelling of an exclude is mild too: a correction never vetoes ("catch" is not "watch").
  private func isMildExclude(_ hit: KeywordHit) -> Bool {
    grammar.targets[Int(hit.entry)].allSatisfy {
      $0.kind == .exclude
        && (hit.isCorrected || grammar.intents[Int($0.intent)].excludes[Int($0.index)] != nil)
    } && !grammar.targets[Int(hit.entry)].isEmpty
  }

  /// Whether the context before `contextEnd` argues against every intent with a keyword in the
  /// clause from `clauseStart`: then no reading of the clause can stand.
  private func allArgued(_ analysis: Analysis, clauseStart: Int, contextEnd: Int) -> Bool {
    let aboutUser = analysis.selfMentions.contains { $0.lowerBound > contextEnd }
    let context = analysis.hits.lazy.filter { $0.range.upperBound <= contextEnd }
    var checked = SmallIndexSet()
    for hit in analysis.hits where hit.range.lowerBound >= clauseStart {
      for target in grammar.targets[Int(hit.entry)] where target.kind == .group {
        let intent = Int(target.intent)
        guard checked.insert(intent) else { continue }
        if !argues(context, against: intent, sparingPeople: aboutUser) { return false }
      }
    }
    return !checked.isEmpty
  }

  /// Whether a confident result of an intent that takes free text was read without any sentence
  /// pattern: its text, or the lack of it, is then a guess from what the keywords left over
  /// ("put milk on my shopping list, we're out" gives "milk on my").
  private func namesByResidue(_ result: ParseResult) -> Bool {
    guard let id = result.intent, !result.explanation.contains(where: { $0.kind == .pattern }),
      let intent = grammar.intents.first(where: { $0.spec.id == id })
    else { return false }
    return intent.hasTextSlot
  }

  /// Whether any of `hits` is one of the intent's strong excludes: a veto, or a penalty of
  /// ``contextExcludePenalty`` or more; words naming others are spared when asked.
  private func argues(
    _ hits: some Sequence<KeywordHit>, against intent: Int, sparingPeople: Bool = false
  ) -> Bool {
    let compiled = grammar.intents[intent]
    // A real word read as a near exclude is the user's word, as in scoring ("coming round").
    return hits.contains { hit in
      !hit.isMisread
        && grammar.targets[Int(hit.entry)].contains {
          $0.kind == .exclude && Int($0.intent) == intent
            && (compiled.excludes[Int($0.index)] ?? .infinity) >= Self.contextExcludePenalty
            && !(sparingPeople && compiled.excludeFlags[Int($0.index)].contains(.others))
        }
    }
  }

  /// Whether clauses of one intent are one command said in parts ("is it cold and windy in
  /// chicago"): the whole is confidently that intent and holds every slot the parts name, with
  /// no slot named twice with different values ("我昨天睡了多久还有昨天走了多少步" asks two things).
  private func restates(_ whole: ParseResult, in clauses: [ParseResult]) -> Bool {
    guard let intent = whole.intent, isConfident(whole),
      clauses.allSatisfy({ $0.intent == intent })
    else { return false }
    var named: [String: SlotValue] = [:]
    for slot in clauses.flatMap(\.slots) {
      if let earlier = named.updateValue(slot.value, forKey: slot.name), earlier != slot.value {
        return false
      }
    }
    return named.keys.allSatisfy { name in whole.slots.contains { $0.name == name } }
  }

  /// Tries each conjunction in turn; a split holds only when every part is confidently an intent.
  private func split(
    _ analysis: Analysis, context: ParseContext, budget: MatchBudget, depth: Int
  ) -> [ParseResult]? {
    let text = analysis.text
    // Commands are joined by conjunctions ("顺便", "and then") or by punctuation alone
    // ("三分钟后提醒我捞面条，二十五分钟后提醒我晾衣服", "add tomatoes to the list. how many steps …").
    var joints = analysis.conjunctions.map { (range: $0, weight: Self.splitKeywordWeight) }
    if let first = text.firstClauseBreak {
      for offset in first..<text.scalars.count where text.isPunctuatedBreak(at: offset) {
        joints.append((offset..<offset + 1, Self.punctuationSplitWeight))
      }
      joints.sort { $0.range.lowerBound < $1.range.lowerBound }
    }
    var tried = 0
    for (conjunction, weight) in joints where tried < Self.jointsTried {
      // Both sides need a main keyword of their own before they are worth classifying.
      guard
        hasMainKeyword(
          analysis, weight: weight, where: { $0.upperBound <= conjunction.lowerBound }),
        hasMainKeyword(analysis, weight: weight, where: { $0.lowerBound >= conjunction.upperBound })
      else { continue }
      tried += 1
      let left = text.originalText(of: 0..<conjunction.lowerBound)
      let right = text.originalText(of: conjunction.upperBound..<text.scalars.count)
      guard !left.isEmpty, !right.isEmpty else { continue }
      let (leftResult, _) = classify(normalize(left), context: context, budget: budget)
      // A part that still needs a detail is a command all the same: its detail is asked for.
      guard isConfidentIntent(leftResult) else { continue }
      let rightNormalized = normalize(right)
      let (rightResult, rightAnalysis) = classify(rightNormalized, context: context, budget: budget)
      if isConfident(rightResult) { return [leftResult, rightResult] }
      // "明天上午看看天气顺便提醒我带伞": the second command takes its time from the first.
      // The second part may even read as another intent without it ("remind me to take an
      // umbrella" alone asks the weather).
      if let time = leftResult.slots.first(where: { $0.type == .datetime || $0.type == .date }),
        !rightResult.slots.contains(where: { $0.type == .datetime || $0.type == .date })
      {
        var (inherited, _) = classify(
          normalize(time.source + " " + right), context: context, budget: budget)
        if isConfident(inherited) {
          inherited.text = right
          inherited.explanation.append(
            Evidence(
              kind: .note, detail: "time '\(time.source)' carried over from the previous command",
              contribution: 0))
          return [leftResult, inherited]
        }
      }
      if depth + 1 < Self.maximumClauses,
        !rightAnalysis.conjunctions.isEmpty || rightAnalysis.text.firstClauseBreak != nil,
        let rest = split(rightAnalysis, context: context, budget: budget, depth: depth + 1)
      {
        return [leftResult] + rest
      }
      if isConfidentIntent(rightResult) { return [leftResult, rightResult] }
    }
    return nil
  }

  /// Whether a keyword strong enough to carry a command of its own (``splitKeywordWeight``)
  /// sits where `placed` accepts its range.
  @inline(__always)
  private func hasMainKeyword(
    _ analysis: Analysis, weight: Double = splitKeywordWeight, where placed: (Range<Int>) -> Bool
  ) -> Bool {
    analysis.hits.contains {
      placed($0.range) && grammar.strongestWeight[Int($0.entry)] >= weight
    }
  }
}

extension ParseResult {
  /// This part's result reported for the whole utterance, with a note on how the whole was read.
  fileprivate func standing(for whole: NormalizedText, note: String) -> ParseResult {
    var result = self
    result.text = whole.original
    result.normalizedText = whole.string
    result.explanation.append(Evidence(kind: .note, detail: note, contribution: 0))
    return result
  }
}
