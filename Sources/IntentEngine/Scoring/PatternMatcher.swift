/// Matches compiled patterns against a whole utterance, with a step budget so no input can
/// make matching slow.
struct PatternMatcher {
  let scalars: [Unicode.Scalar]
  /// Entities by start offset.
  let entitiesByStart: [Int: [Int]]
  let entities: [Entity]
  /// Filler word ends by start offset: fillers may be skipped between pattern elements.
  let fillerEnds: [Int: Int]
  /// Where matching must start and end (fillers and spaces trimmed off both ends).
  let bounds: Range<Int>

  /// The most matching steps one pattern may take on one utterance.
  static let stepBudget = 4_000

  /// A successful match: the entity filling each slot, and each capture's range.
  struct Match {
    var slotEntities: [String: Int] = [:]
    var captures: [(name: String?, range: Range<Int>)] = []
  }

  /// The first expansion of `pattern` that covers the whole utterance.
  func match(_ pattern: Pattern) -> Match? {
    for sequence in pattern.sequences {
      var steps = 0
      var match = Match()
      if matchElements(sequence[...], at: bounds.lowerBound, into: &match, steps: &steps) {
        return match
      }
    }
    return nil
  }

  private func skipSpaces(_ position: Int) -> Int {
    var p = position
    while p < bounds.upperBound, scalars[p] == " " { p += 1 }
    return p
  }

  private func matchElements(
    _ elements: ArraySlice<Pattern.Element>, at start: Int, into match: inout Match, steps: inout Int
  ) -> Bool {
    steps += 1
    if steps > Self.stepBudget { return false }
    let position = skipSpaces(start)
    guard let element = elements.first else { return position >= bounds.upperBound }
    let rest = elements.dropFirst()
    if matchElement(element, rest, at: position, into: &match, steps: &steps) { return true }
    // A filler ("请", "一下", "please") may sit between elements.
    if let end = fillerEnds[position], end < bounds.upperBound {
      return matchElements(elements, at: end, into: &match, steps: &steps)
    }
    return false
  }

  private func matchElement(
    _ element: Pattern.Element, _ rest: ArraySlice<Pattern.Element>, at position: Int,
    into match: inout Match, steps: inout Int
  ) -> Bool {
    switch element {
    case .literal(let literal):
      guard let end = matchLiteral(literal, at: position) else { return false }
      return matchElements(rest, at: end, into: &match, steps: &steps)
    case .anyOf(let options):
      for option in options {
        if let end = matchLiteral(option, at: position),
          matchElements(rest, at: end, into: &match, steps: &steps)
        {
          return true
        }
      }
      return false
    case .slot(let name, let type):
      for index in entitiesByStart[position] ?? [] {
        let entity = entities[index]
        guard entity.type == type || (type == .date && entity.type == .datetime) else { continue }
        let saved = match
        match.slotEntities[name] = index
        if matchElements(rest, at: entity.range.upperBound, into: &match, steps: &steps) {
          return true
        }
        match = saved
      }
      return false
    case .capture(let name):
      guard position < bounds.upperBound else { return false }
      var end = position + 1
      while end <= bounds.upperBound {
        steps += 1
        if steps > Self.stepBudget { return false }
        let saved = match
        match.captures.append((name, position..<end))
        if matchElements(rest, at: end, into: &match, steps: &steps) { return true }
        match = saved
        end += 1
      }
      return false
    }
  }

  /// Matches a literal, ignoring spaces on both sides; Latin words must end on a word boundary.
  private func matchLiteral(_ literal: [Unicode.Scalar], at position: Int) -> Int? {
    var p = position
    var lastMatched: Unicode.Scalar?
    for scalar in literal {
      if scalar == " " { continue }
      while p < bounds.upperBound, scalars[p] == " " { p += 1 }
      guard p < bounds.upperBound, scalars[p] == scalar else { return nil }
      lastMatched = scalar
      p += 1
    }
    if let last = lastMatched, Self.isWordASCII(last), p < bounds.upperBound,
      Self.isWordASCII(scalars[p])
    {
      return nil
    }
    if let first = literal.first(where: { $0 != " " }), Self.isWordASCII(first), position > 0,
      Self.isWordASCII(scalars[position - 1])
    {
      return nil
    }
    return p
  }

  private static func isWordASCII(_ s: Unicode.Scalar) -> Bool {
    Tokenizer.isASCIILetter(s.value) || Tokenizer.isASCIIDigit(s.value)
  }
}
