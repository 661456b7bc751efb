/// Matches compiled patterns against a whole utterance, with a step budget so no input can
/// make matching slow.
///
/// Matching backtracks only at list references, slot placeholders and free-text parts; the
/// bindings of the current attempt live on one stack that is unwound on failure, so a failed
/// attempt allocates nothing.
struct PatternMatcher {
  let scalars: [Unicode.Scalar]
  let entities: [Entity]
  /// Entity indexes ordered by start offset, then longest first.
  let entityOrder: [Int]
  /// For each offset, the end of the longest filler word starting there, or -1.
  let fillerEnds: [Int]
  /// Where words may start and end: literals never split a token.
  let boundaries: [Bool]
  /// For each offset, how many content scalars (not spaces, fillers or function words) precede
  /// it: free text must hold at least one ("set a timer" has no payload in "set a").
  let contentBefore: [Int32]
  /// Where matching must start and end (fillers and spaces trimmed off both ends).
  let bounds: Range<Int>
  /// Where a final free-text part ends when the match covers a first clause only.
  let clauseEnd: Int?
  /// The end of the text without trailing spaces, or of the first clause matched alone; a final
  /// free-text part runs to it.
  var textEnd: Int {
    if let clauseEnd { return clauseEnd }
    var end = scalars.count
    while end > 0, scalars[end - 1] == " " { end -= 1 }
    return max(end, bounds.upperBound)
  }
  /// Where a clause after context may begin: after each space inside the bounds (punctuation
  /// becomes a space when text is normalised), the last `count` at or before `limit`, in order.
  func clauseStarts(through limit: Int, count: Int) -> [Int] {
    var starts: [Int] = []
    var i = min(limit, bounds.upperBound - 1)
    while i > bounds.lowerBound, starts.count < count {
      if scalars[i - 1] == " ", scalars[i] != " " { starts.append(i) }
      i -= 1
    }
    return starts.reversed()
  }
  /// A 1,024-bit sketch of the scalar pairs in the utterance, for quick rejection; inline, so
  /// building a matcher allocates nothing for it.
  let present: SIMD16<UInt64>
  /// The types of the utterance's entities, as bits by ``EntityType/rank``; a datetime also
  /// counts as a date, as slots read it.
  let entityTypes: UInt16
  /// The steps the whole parse may still take, shared with every other matcher of the parse.
  let budget: MatchBudget

  init(
    scalars: [Unicode.Scalar], entities: [Entity], entityOrder: [Int],
    fillerEnds: [Int], boundaries: [Bool], contentBefore: [Int32], bounds: Range<Int>,
    clauseEnd: Int? = nil, budget: MatchBudget = MatchBudget()
  ) {
    self.budget = budget
    self.clauseEnd = clauseEnd
    self.contentBefore = contentBefore
    self.scalars = scalars
    self.entities = entities
    self.entityOrder = entityOrder
    self.fillerEnds = fillerEnds
    self.boundaries = boundaries
    self.bounds = bounds
    var types: UInt16 = 0
    for entity in entities {
      types |= 1 << UInt16(entity.type.rank)
      if entity.type == .datetime { types |= 1 << UInt16(EntityType.date.rank) }
    }
    entityTypes = types
    // Pairs of neighbouring non-space scalars, spaces skipped, as Pattern.openingPair keys them.
    var present = SIMD16<UInt64>()
    var previous: UInt32?
    for scalar in scalars[bounds] where scalar != " " {
      if Tokenizer.isASCIILetter(scalar.value) {
        let key = Int(Pattern.pairKey(scalar.value, 0))
        present[key >> 6] |= 1 << UInt64(key & 63)
      }
      if let previous {
        let key = Int(Pattern.pairKey(previous, scalar.value))
        present[key >> 6] |= 1 << UInt64(key & 63)
      }
      previous = scalar.value
    }
    self.present = present
  }

  /// This matcher for the text up to `end` alone: the first clause, before context said after it.
  func firstClause(endingAt end: Int) -> PatternMatcher {
    var upper = min(end, bounds.upperBound)
    while upper > bounds.lowerBound, scalars[upper - 1] == " " { upper -= 1 }
    return PatternMatcher(
      scalars: scalars, entities: entities, entityOrder: entityOrder, fillerEnds: fillerEnds,
      boundaries: boundaries, contentBefore: contentBefore, bounds: bounds.lowerBound..<upper,
      clauseEnd: upper, budget: budget)
  }

  /// The most matching steps one expanded sequence may take on one utterance.
  static let stepBudget = 4_000

  /// One binding made while matching: a slot's entity or a free-text range.
  struct Binding {
    /// The slot or capture name's index in the pattern's names; -1 for an anonymous `*`.
    var name: Int32
    /// The entity filling a slot, or nil for a capture.
    var entity: Int?
    var range: Range<Int>
  }

  /// A successful match: what each slot and capture was bound to.
  struct Match {
    var bindings: [Binding]
    /// The pattern's slot and capture names.
    var names: [String]

    private func isNamed(_ binding: Binding, _ name: String) -> Bool {
      binding.name >= 0 && names[Int(binding.name)] == name
    }

    /// The entity bound to slot `name`.
    func entity(forSlot name: String) -> Int? {
      bindings.first { $0.entity != nil && isNamed($0, name) }?.entity
    }

    /// The range captured for the text slot `name`.
    func capture(named name: String) -> Range<Int>? {
      bindings.first { $0.entity == nil && isNamed($0, name) }?.range
    }

    /// Whether the match bound any free text.
    var hasCaptures: Bool { bindings.contains { $0.entity == nil } }

    /// The ranges of free text the match bound.
    var captureRanges: [Range<Int>] {
      var ranges: [Range<Int>] = []
      for binding in bindings where binding.entity == nil { ranges.append(binding.range) }
      return ranges
    }
  }

  /// One pattern's program, seen through pointers for the length of one match, so that the
  /// recursion below copies plain values and retains nothing.
  private struct Run {
    let steps: UnsafeBufferPointer<PatternProgram.Step>
    let text: UnsafeBufferPointer<Unicode.Scalar>
    let options: UnsafeBufferPointer<Range<Int32>>
    let firsts: UnsafeBufferPointer<UInt32>
    /// One past the last step of the sequence being matched.
    var end: Int
    /// The most steps this sequence may take: its own cap or what the parse has left.
    var limit: Int
  }

  /// The first expansion of `pattern` that covers the whole utterance, or everything from `start`.
  ///
  /// Callers rule most patterns out first with ``mayOpen(_:)``, which reads no pattern.
  func match(_ pattern: Pattern, from start: Int? = nil) -> Match? {
    guard budget.remaining > 0 else { return nil }
    // Most patterns have no sequence whose words the text holds: they end before any set-up,
    // and before the program's arrays are retained.
    guard
      let firstViable = pattern.requirements.indices.first(where: {
        hasSlotEntities(pattern, $0) && mayContain(pattern.requirements[$0])
      })
    else { return nil }
    let program = pattern.program
    let origin = start ?? bounds.lowerBound
    // `program` stays alive for the whole call: the pointers below are into it. The bindings
    // live inside the innermost closure, so no mutable state is shared across closures.
    let bindings: [Binding]? = program.steps.withUnsafeBufferPointer { steps in
      program.text.withUnsafeBufferPointer { text in
        program.options.withUnsafeBufferPointer { options in
          program.firsts.withUnsafeBufferPointer { firsts in
            var stack: [Binding] = []
            for sequence in firstViable..<program.sequenceCount {
              // Every sequence looked at costs a step, so that many cheap rejections add up too.
              budget.remaining -= 1
              guard budget.remaining > 0 else { return nil }
              guard
                sequence == firstViable
                  || (hasSlotEntities(pattern, sequence)
                    && mayContain(pattern.requirements[sequence]))
              else {
                continue
              }
              let first = program.sequenceStarts[sequence]
              let run = Run(
                steps: steps, text: text, options: options, firsts: firsts,
                end: program.sequenceStarts[sequence + 1],
                limit: min(Self.stepBudget, budget.remaining))
              if let set = steps[first].firsts, !canStart(run, set, at: origin) { continue }
              var taken = 0
              stack.removeAll(keepingCapacity: true)
              let isMatch = matchElements(run, first, at: origin, stack: &stack, steps: &taken)
              budget.remaining -= min(taken, run.limit)
              // A sentence of the pattern says one of its words: slots alone ("walking now" as a
              // bare {metric}) are the entities, not the pattern.
              if isMatch, !program.wordless[sequence] || saysWord(besides: stack, from: origin) {
                return stack
              }
            }
            return nil
          }
        }
      }
    }
    return bindings.map { Match(bindings: $0, names: program.names) }
  }

  /// Whether the utterance holds one of the keys in a pattern's ``Pattern/openingMask``: without
  /// one, no sequence of the pattern can match.
  @inline(__always)
  func mayOpen(_ openingMask: SIMD16<UInt64>) -> Bool {
    Self.intersects(openingMask, present)
  }

  /// Whether two key sketches share a key.
  @inline(__always)
  private static func intersects(_ a: SIMD16<UInt64>, _ b: SIMD16<UInt64>) -> Bool {
    let both = a & b
    let folded = both.lowHalf | both.highHalf
    return folded.lowHalf != .zero || folded.highHalf != .zero
  }

  /// Whether the utterance has an entity of every type the slots of sequence `sequence` take.
  @inline(__always)
  private func hasSlotEntities(_ pattern: Pattern, _ sequence: Int) -> Bool {
    pattern.program.slotTypes[sequence] & ~entityTypes == 0
  }

  /// Whether the utterance has, for every requirement, a scalar one of its options starts with.
  private func mayContain(_ requirements: [[UInt32]]) -> Bool {
    requirements.allSatisfy { options in
      options.contains { present[Int($0) >> 6] & (1 << UInt64($0 & 63)) != 0 }
    }
  }

  /// Whether the text from `origin` holds a word that neither `bindings` nor politeness covers:
  /// a word the pattern itself matched.
  private func saysWord(besides bindings: [Binding], from origin: Int) -> Bool {
    var p = origin
    scan: while p < bounds.upperBound {
      if scalars[p] == " " {
        p += 1
        continue
      }
      if fillerEnds[p] > p {
        p = fillerEnds[p]
        continue
      }
      for binding in bindings where binding.range.contains(p) {
        p = binding.range.upperBound
        continue scan
      }
      return true
    }
    return false
  }

  /// Whether a step starting with one of the scalars `set` could start at `position`, possibly
  /// after a filler.
  private func canStart(_ run: Run, _ set: Range<Int32>, at position: Int) -> Bool {
    guard position < bounds.upperBound else { return false }
    if fillerEnds[position] > position { return true }
    let value = scalars[position].value
    for i in Int(set.lowerBound)..<Int(set.upperBound) where run.firsts[i] == value {
      return true
    }
    return false
  }

  private func skipSpaces(_ position: Int) -> Int {
    var p = position
    while p < bounds.upperBound, scalars[p] == " " { p += 1 }
    return p
  }

  private func matchElements(
    _ run: Run, _ index: Int, at start: Int, stack: inout [Binding], steps: inout Int
  ) -> Bool {
    steps += 1
    if steps > run.limit { return false }
    let position = skipSpaces(start)
    guard index < run.end else { return position >= bounds.upperBound }
    if matchElement(run, index, at: position, stack: &stack, steps: &steps) {
      return true
    }
    // A filler ("请", "一下", "please") may sit between elements.
    if position < bounds.upperBound {
      let end = fillerEnds[position]
      if end > position, end < bounds.upperBound {
        return matchElements(run, index, at: end, stack: &stack, steps: &steps)
      }
    }
    return false
  }

  private func matchElement(
    _ run: Run, _ index: Int, at position: Int, stack: inout [Binding], steps: inout Int
  ) -> Bool {
    let step = run.steps[index]
    switch step.kind {
    case .literal:
      guard
        let end = matchLiteral(
          run, Int(step.start)..<Int(step.end), at: position, checkStart: step.startsWord,
          checkEnd: step.endsWord)
      else { return false }
      return matchElements(run, index + 1, at: end, stack: &stack, steps: &steps)
    case .anyOf:
      // Spaces are skipped before a step, so an option can only match, exactly or with a slip,
      // if its first scalar is the one here (or it is empty: the optional part left out).
      let here = position < bounds.upperBound ? scalars[position] : " "
      for option in Int(step.start)..<Int(step.end) {
        let literal = run.options[option]
        if literal.lowerBound < literal.upperBound {
          let opening = run.text[Int(literal.lowerBound)]
          if opening != here, opening != " " { continue }
        }
        if let end = matchLiteral(
          run, Int(literal.lowerBound)..<Int(literal.upperBound), at: position,
          checkStart: step.startsWord, checkEnd: step.endsWord),
          matchElements(run, index + 1, at: end, stack: &stack, steps: &steps)
        {
          return true
        }
        if steps > run.limit { return false }
      }
      return false
    case .slot:
      guard position < bounds.upperBound else { return false }
      let type = step.type
      for entityIndex in entityOrder where entities[entityIndex].range.lowerBound == position {
        // Fields are read one by one: copying a whole entity would retain its value and note.
        let found = entities[entityIndex].type
        let range = entities[entityIndex].range
        guard found == type || (type == .date && found == .datetime),
          range.upperBound <= bounds.upperBound,
          !(step.isAbsolute && Scorer.isRelative(entityIndex, in: entities))
        else { continue }
        stack.append(Binding(name: step.name, entity: entityIndex, range: range))
        if matchElements(run, index + 1, at: range.upperBound, stack: &stack, steps: &steps) {
          return true
        }
        stack.removeLast()
      }
      return false
    case .capture:
      guard position < bounds.upperBound else { return false }
      // Free text starts and ends between tokens: it never takes half a word ("备忘|录"). It does
      // not start with politeness ("记一下哈 …"), and a final one runs to the end of the text, where
      // the payload's own trimming decides what is a particle.
      var start = position
      // Only a filler set apart by a space is politeness ("记一下哈 妈妈…"); one glued to the
      // next word is part of the payload ("那家火锅店").
      while start < bounds.upperBound, fillerEnds[start] > start,
        fillerEnds[start] >= scalars.count || scalars[fillerEnds[start]] == " "
      {
        start = skipSpaces(fillerEnds[start])
      }
      start = afterStutter(start)
      guard start < bounds.upperBound, boundaries[start] else { return false }
      let position = start
      let isLast = index + 1 == run.end
      let next = isLast ? nil : run.steps[index + 1].firsts
      let limit = isLast ? textEnd : bounds.upperBound
      var end = isLast ? textEnd : position + 1
      while end <= limit {
        steps += 1
        if steps > run.limit { return false }
        if !boundaries[end] || contentBefore[end] == contentBefore[position]
          || (next.map { !canStart(run, $0, at: skipSpaces(end)) } ?? false)
          || (!isLast && endsWithDeterminer(position..<end))
        {
          end += 1
          continue
        }
        stack.append(Binding(name: step.name, entity: nil, range: position..<end))
        if matchElements(run, index + 1, at: end, stack: &stack, steps: &steps) {
          return true
        }
        stack.removeLast()
        end += 1
      }
      return false
    }
  }

  /// Where free text starting at `start` begins once a stutter is skipped: words said twice
  /// ("记一下 记一下 …", "write down write down …") repeat the two to twelve scalars before it.
  private func afterStutter(_ start: Int) -> Int {
    var before = start
    while before > bounds.lowerBound, scalars[before - 1] == " " { before -= 1 }
    guard before < start || !Tokenizer.isASCIILetter(scalars[start].value) else { return start }
    for length in stride(from: min(12, before - bounds.lowerBound), through: 2, by: -1) {
      let end = start + length
      guard end <= bounds.upperBound, boundaries[end], boundaries[before - length],
        scalars[(before - length)..<before].elementsEqual(scalars[start..<end])
      else { continue }
      return skipSpaces(end)
    }
    return start
  }

  /// Words that open a noun phrase: free text followed by more of the pattern never ends with
  /// one ("set a | timer" names no timer, "帮我设个 | 计时器" neither).
  private static let determiners: [[Unicode.Scalar]] = [
    "a", "an", "the", "teh", "my", "this", "that", "your", "个", "这个", "那个",
  ].map { Array($0.unicodeScalars) }

  /// Whether the free text in `range` ends with a determiner.
  private func endsWithDeterminer(_ range: Range<Int>) -> Bool {
    var end = range.upperBound
    while end > range.lowerBound, scalars[end - 1] == " " { end -= 1 }
    for word in Self.determiners where word.count <= end - range.lowerBound {
      let start = end - word.count
      guard scalars[start..<end].elementsEqual(word) else { continue }
      // A Latin determiner is a whole word ("a" ends "pizza" too).
      if word[0].isASCII, start > range.lowerBound, scalars[start - 1] != " " { continue }
      return true
    }
    return false
  }

  /// Matches a literal, ignoring spaces on both sides; the end of the match, or nil.
  ///
  /// Latin words must start and end on word boundaries; `checkStart` and `checkEnd` also demand
  /// token boundaries where the literal meets a placeholder.
  /// Matches Latin words one edit off ("shoping list", "remnd me"): each word of five letters
  /// or more may differ by one insertion, deletion, substitution or swap, keeping its first letter.
  private func matchMisspelt(_ run: Run, _ literal: Range<Int>, at position: Int, checkEnd: Bool)
    -> Int?
  {
    // Cheap rejections first.
    var start = position
    while start < bounds.upperBound, scalars[start] == " " { start += 1 }
    guard start < bounds.upperBound, literal.count >= TypoIndex.minimumKeywordLength else {
      return nil
    }
    let opening = run.text[literal.lowerBound]
    guard opening != " ", scalars[start] == opening, Tokenizer.isASCIILetter(opening.value)
    else { return nil }
    let reached: Int? = scalars.withUnsafeBufferPointer { utterance in
      var p = position
      var fuzzy = false
      var wordStart = literal.lowerBound
      while wordStart < literal.upperBound {
        var wordEnd = wordStart
        while wordEnd < literal.upperBound, run.text[wordEnd] != " " { wordEnd += 1 }
        let word = run.text[wordStart..<wordEnd]
        wordStart = wordEnd + 1
        guard !word.isEmpty else { continue }
        while p < bounds.upperBound, utterance[p] == " " { p += 1 }
        var end = p
        while end < bounds.upperBound, Tokenizer.isASCIILetter(utterance[end].value) { end += 1 }
        let typed = utterance[p..<end]
        if !typed.elementsEqual(word) {
          guard word.count >= TypoIndex.minimumKeywordLength, typed.first == word.first,
            TypoIndex.isOneEditApart(typed, word)
          else { return nil }
          fuzzy = true
        }
        p = end
      }
      return fuzzy ? p : nil
    }
    // Only Latin words take a slip; checked last, since most tries end in the loop above.
    guard let p = reached, !checkEnd || boundaries[p],
      literal.allSatisfy({ run.text[$0] == " " || Tokenizer.isASCIILetter(run.text[$0].value) })
    else { return nil }
    if position > 0, Scorer.isASCIIWord(scalars[position - 1]) { return nil }
    return p
  }

  /// Whether the letters from `p` to the end of the word are an English ending (s, es, d, ed,
  /// ing, r, er), which makes another word of the one before it.
  private func isInflection(at p: Int) -> Bool {
    var end = p
    while end < bounds.upperBound, Tokenizer.isASCIILetter(scalars[end].value) { end += 1 }
    let ending = scalars[p..<end]
    return Self.endings.contains { $0.elementsEqual(ending) }
  }

  private static let endings: [[Unicode.Scalar]] = ["s", "es", "ed", "d", "ing", "er", "r"].map {
    Array($0.unicodeScalars)
  }

  private func matchLiteral(
    _ run: Run, _ literal: Range<Int>, at position: Int, checkStart: Bool, checkEnd: Bool
  ) -> Int? {
    if literal.allSatisfy({ run.text[$0] == " " }) { return position }
    if checkStart, !boundaries[position] { return nil }
    var p = position
    var first: Unicode.Scalar?
    var last: Unicode.Scalar?
    for i in literal {
      let scalar = run.text[i]
      if scalar == " " { continue }
      while p < bounds.upperBound, scalars[p] == " " { p += 1 }
      guard p < bounds.upperBound, scalars[p] == scalar else {
        // A slip keeps the first letter of a long enough word: most mismatches end here.
        guard first != nil, literal.count >= TypoIndex.minimumKeywordLength else { return nil }
        return matchMisspelt(run, literal, at: position, checkEnd: checkEnd)
      }
      if first == nil { first = scalar }
      last = scalar
      p += 1
    }
    // The typed word runs on past the literal: a slip that adds a letter ("reminde me"), but
    // never an ending ("timers" is no slip of "timer").
    if (checkEnd && !boundaries[p])
      || (last.map(Scorer.isASCIIWord) == true && p < bounds.upperBound
        && Scorer.isASCIIWord(scalars[p]))
    {
      guard first != nil, !isInflection(at: p) else { return nil }
      return matchMisspelt(run, literal, at: position, checkEnd: checkEnd)
    }
    if let first, Scorer.isASCIIWord(first), position > 0, Scorer.isASCIIWord(scalars[position - 1])
    {
      return nil
    }
    return p
  }
}

/// The matching steps one parse may still take, shared by every pattern it tries.
///
/// A step budget per expanded sequence alone lets work grow with patterns × expansions: a small
/// grammar of many wide patterns made every parse take tens of milliseconds. The parse draws all
/// its matching from one budget; once it is spent, no further pattern matches.
///
/// `@unchecked Sendable`: a budget is made by one call of ``Engine/parse(_:context:)`` and used
/// only by that synchronous call, so it is never touched from two threads.
final class MatchBudget: @unchecked Sendable {
  /// Steps left.
  var remaining: Int

  /// The steps a parse may take in all.
  ///
  /// The costliest fixture lines, pinned in `PatternBudgetTests`, take under 6,000.
  static let perParse = 100_000

  /// Creates a budget of `steps`.
  init(steps: Int = perParse) {
    remaining = steps
  }
}
