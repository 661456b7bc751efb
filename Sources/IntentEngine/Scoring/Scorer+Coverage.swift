extension Scorer {
  /// Fills the intent's text slot from its payload and returns how many countable scalars of the
  /// utterance the intent explains, the payload's credit included.
  ///
  /// A full pattern match explains all of the utterance, and only its `{text}` part is payload.
  /// Otherwise the payload is what the evidence in `evidenceRanges` leaves unexplained, and
  /// counts at ``payloadCredit``. A required text slot left empty costs
  /// ``unsupportedSlotPenalty`` without a pattern and ``missingSlotPenalty`` with one.
  func fillPayload(
    _ intent: CompiledIntent, _ analysis: Analysis, fit: PatternFit?,
    filling: inout SlotFilling, score: inout Double, evidence: inout [EvidenceRecord],
    explaining evidenceRanges: inout [Range<Int>]
  ) -> Int {
    let patternMatch = fit?.match
    let isTail = fit?.tailStart != nil
    evidenceRanges.sort { $0.lowerBound < $1.lowerBound }
    var explainedLength = analysis.explainedLength(bySorted: evidenceRanges)
    if patternMatch != nil, !isTail { explainedLength = analysis.contentLength }
    // Context after a first clause the pattern fits counts as partly explained.
    if let head = fit?.headEnd {
      let open = analysis.openBefore
      let context = Int(open[analysis.text.scalars.count] - open[head])
      explainedLength -= context - Int(Double(context) * Self.payloadCredit)
    }
    guard let textSlotIndex = filling.textSlot else { return explainedLength }
    let textSlot = intent.spec.slots[textSlotIndex]
    var payload: Range<Int>?
    if let patternMatch {
      if let range = patternMatch.capture(named: textSlot.name) {
        payload = PayloadText.trimmedWindow(range, in: analysis.text)
      }
      if let captured = payload {
        payload = Self.name(
          in: captured, besides: filling, explained: evidenceRanges, analysis)
      }
      if isTail, payload != nil {
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
      filling.slots.append(.text(slot: textSlotIndex, payload))
    } else if textSlot.isRequired {
      filling.missing.append(textSlot.name)
      let penalty = patternMatch == nil ? Self.unsupportedSlotPenalty : Self.missingSlotPenalty
      score -= penalty
      evidence.append(.missingSlot(slot: textSlotIndex, isText: true, penalty: penalty))
    }
    return explainedLength
  }

  /// What of a captured text names the item, once a value that fills another slot is inside it.
  ///
  /// Words already read as the request are no name: a keyword or marker ("待办清单里有几项",
  /// "笔记全部删除"), or a time that fills its own slot ("cancel my 5pm reminder", "my alarm for
  /// tomorrow"). Words around such a value describe the request, not a name ("整个八分钟的倒计时",
  /// "a timer for like fifteen minutes, dear") — unless Chinese words follow it, which it
  /// qualifies, with or without 的 ("十五分钟的面膜": the mask; "周五开会的提醒": the meeting).
  static func name(
    in captured: Range<Int>, besides filling: SlotFilling, explained: [Range<Int>],
    _ analysis: Analysis
  ) -> Range<Int>? {
    if explained.contains(where: {
      $0.lowerBound <= captured.lowerBound && captured.upperBound <= $0.upperBound
    }) {
      return nil
    }
    // The end of the last such value inside the capture.
    var end: Int?
    for case .entity(_, let index) in filling.slots {
      let range = analysis.entities[index].range
      if captured.lowerBound <= range.lowerBound, range.upperBound <= captured.upperBound {
        end = max(end ?? range.upperBound, range.upperBound)
      }
    }
    guard let end else { return captured }
    let text = analysis.text
    var next = end
    while next < captured.upperBound,
      text.scalars[next] == "的" || text.scalars[next] == "嘅"
        || (text.scalars[next] == " " && !text.isClauseBreak(at: next))
    {
      next += 1
    }
    guard next < captured.upperBound, text.scalars[next].value >= 0x3400 else { return nil }
    return PayloadText.trimmedWindow(next..<captured.upperBound, in: text)
  }

  /// The share of the utterance's countable scalars that `explainedLength` covers, and its score:
  /// ``coverageWeight`` times its distance from ``coverageCentre``.
  static func coverage(explaining explainedLength: Int, of analysis: Analysis) -> (
    share: Double, score: Double
  ) {
    let share =
      analysis.contentLength == 0
      ? 0 : min(1, Double(explainedLength) / Double(analysis.contentLength))
    return (share, coverageWeight * (share - coverageCentre))
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

  /// Whether free text is short enough to name a timer or item rather than tell a situation:
  /// at most four scalars, not ending in a sentence particle ("泡面", not "算了").
  static func isShortName(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
    guard text.count <= 4, let last = text.last else { return false }
    return !"了吧啊呢呀嘛".unicodeScalars.contains(last)
  }
}
