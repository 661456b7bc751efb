/// A compiled sentence pattern: one flat sequence of elements per alternative it expands to.
///
/// Optional parts and alternatives are expanded when grammars load, so matching only
/// backtracks at slot placeholders, list references and wildcards. A class: every parse walks
/// the patterns of several intents, and a reference costs one retain where a copy costs many.
final class Pattern: Sendable {
  /// One element of an expanded pattern.
  enum Element: Sendable, Equatable {
    /// Normalised scalars that must appear here.
    case literal([Unicode.Scalar])
    /// Any one of several normalised words (an `@list` reference or a bracket of plain words).
    case anyOf(PatternWords)
    /// An entity filling the named slot must start here; `absolute` slots refuse offsets from now.
    case slot(name: String, type: EntityType, absolute: Bool)
    /// A free run of text: the `{text}` payload, or `*`.
    case capture(name: String?)
  }

  /// The pattern as written, for explanations.
  let source: String
  /// Whether the pattern was written with a leading `^`: it starts the utterance or a clause,
  /// never inside a sentence ("i left a note for the plumber").
  let isAnchored: Bool
  /// Whether a `:` stands right before its free text: that text must follow punctuation ("note:
  /// the code is 4471", not "Note to Self is a great podcast").
  let isHeading: Bool
  /// Every flat sequence the pattern expands to, in plain arrays for matching.
  let program: PatternProgram

  /// For each sequence, what an utterance must contain for it to match.
  ///
  /// For every mandatory word, the keys of the scalar pairs its options may open with (see
  /// ``openingPair(_:)``). A cheap test rules most sequences out before any matching.
  let requirements: [[[UInt32]]]
  /// The keys that every sequence's first requirement draws on, as bits.
  ///
  /// All bits are set when some sequence has no requirement. An utterance holding none of them
  /// matches no sequence, so the pattern is not tried at all, and ruling it out takes a few
  /// instructions whatever the number of keys.
  let openingMask: SIMD16<UInt64>

  init(
    source: String, sequences: [[Element]], isAnchored: Bool = false, isHeading: Bool = false
  ) {
    self.source = source
    self.isAnchored = isAnchored
    self.isHeading = isHeading
    self.program = PatternProgram(sequences)
    var requirements: [[[UInt32]]] = []
    requirements.reserveCapacity(sequences.count)
    for elements in sequences {
      var sequence: [[UInt32]] = []
      sequence.reserveCapacity(elements.count)
      for element in elements {
        switch element {
        case .literal(let scalars):
          if let key = Self.openingPair(scalars) { sequence.append([key]) }
        case .anyOf(let words):
          if let keys = words.openingKeys { sequence.append(keys) }
        case .slot, .capture: break
        }
      }
      requirements.append(sequence)
    }
    self.requirements = requirements
    var mask = SIMD16<UInt64>()
    for sequence in requirements {
      guard let first = sequence.first else {
        mask = SIMD16(repeating: ~0)
        break
      }
      for key in first { mask[Int(key) >> 6] |= 1 << UInt64(key & 63) }
    }
    openingMask = mask
  }

  /// A 10-bit key of a word's first two non-space scalars, or nil for a one-scalar word.
  ///
  /// A Latin word long enough to be matched with a typo keys on its first letter alone
  /// (`pairKey(letter, 0)`), since the typo may be in its second.
  static func openingPair(_ scalars: [Unicode.Scalar]) -> UInt32? {
    if scalars.count >= TypoIndex.minimumKeywordLength, let letter = scalars.first,
      scalars.allSatisfy({ $0 == " " || Tokenizer.isASCIILetter($0.value) })
    {
      return pairKey(letter.value, 0)
    }
    var first: UInt32?
    for scalar in scalars where scalar != " " {
      guard let a = first else {
        first = scalar.value
        continue
      }
      return pairKey(a, scalar.value)
    }
    return nil
  }

  /// Hashes two scalar values into 10 bits.
  @inline(__always)
  static func pairKey(_ a: UInt32, _ b: UInt32) -> UInt32 {
    (((a &* 31) &+ b) &* 2_654_435_761) >> 22
  }

  /// The most alternatives one pattern may expand to; more usually means a mistake.
  static let expansionLimit = 512
  /// The deepest `(…)` and `[…]` may nest.
  ///
  /// Patterns are parsed and expanded recursively, so an unbounded depth would overflow the
  /// stack. People nest a few levels at most.
  static let nestingLimit = 32
  /// The most sequences all patterns of one intent may expand to.
  ///
  /// Every parse that touches the intent may walk them all; the largest built-in intent
  /// (weather.query) has 47.
  static let intentExpansionLimit = 2_048
}

/// The words one pattern position accepts, with what matching needs to know about them read
/// once.
///
/// A class: the same list or bracket stands in every sequence a pattern expands to (and a list
/// in every pattern that names it), so its keys are computed, and its words stored, once.
final class PatternWords: Sendable, Hashable {
  /// Normalised words, in the order matching tries them.
  let words: [[Unicode.Scalar]]
  /// The distinct ``Pattern/openingPair(_:)`` keys of the words in order, or nil when a word has
  /// none (one scalar): such a position rules nothing out.
  let openingKeys: [UInt32]?
  /// The distinct first non-space scalars of the words, ascending, or nil when a word has none.
  let firsts: [UInt32]?

  init(_ words: [[Unicode.Scalar]]) {
    self.words = words
    var keys: [UInt32]? = []
    keys?.reserveCapacity(words.count)
    for word in words {
      guard let key = Pattern.openingPair(word) else {
        keys = nil
        break
      }
      if keys?.contains(key) == false { keys?.append(key) }
    }
    openingKeys = keys
    // A bracket holds a handful of words, where comparing is cheaper than hashing; a list may
    // hold hundreds.
    var firsts: [UInt32] = []
    var seen = Set<UInt32>()
    let isLong = words.count > 32
    var everyWordStarts = true
    for word in words {
      guard let first = word.first(where: { $0 != " " }) else {
        everyWordStarts = false
        break
      }
      if isLong ? seen.insert(first.value).inserted : !firsts.contains(first.value) {
        firsts.append(first.value)
      }
    }
    firsts.sort()
    self.firsts = everyWordStarts ? firsts : nil
  }

  static func == (a: PatternWords, b: PatternWords) -> Bool {
    a === b || a.words == b.words
  }

  /// Hashes the word count and the first word only: enough to tell most sets apart cheaply.
  func hash(into hasher: inout Hasher) {
    hasher.combine(words.count)
    hasher.combine(words.first)
  }
}

/// Parses the pattern mini-language: literals, `(a|b)`, `[optional]`, `{slot}`, `@list`, `*`.
struct PatternCompiler {
  /// Slot name → declaration for the intent the pattern belongs to.
  var slots: [String: SlotSpec]
  /// List name → its normalised items.
  var lists: [String: PatternWords]
  /// Normalises literals the same way utterances are.
  var normalize: (String) -> [Unicode.Scalar]

  /// The syntax tree before expansion.
  ///
  /// Only an optional part is boxed: the other cases hold their children in arrays, which are
  /// references already, and a box for every node would be an allocation each.
  fileprivate enum Node {
    /// Text as written and its normalised scalars.
    case literal(String, normalized: [Unicode.Scalar])
    case list(String, column: Int)
    case slot(String, column: Int)
    case capture
    case sequence([Node])
    case choice([Node])
    indirect case optional(Node)
  }

  /// Compiles `syntax`, or returns the diagnostics explaining why it cannot be.
  func compile(_ syntax: PatternSyntax) -> Result<Pattern, GrammarError> {
    // One pass: a scalar is at least one UTF-8 byte, so the bytes bound the count.
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(syntax.source.utf8.count)
    for scalar in syntax.source.unicodeScalars { scalars.append(scalar) }
    let isAnchored = scalars.first == "^"
    // A ':' and then, past any spaces, a '{' opening the free text.
    let isHeading = scalars.indices.contains { index in
      scalars[index] == ":" && scalars[(index + 1)...].first(where: { $0 != " " }) == "{"
    }
    var reader = PatternReader(
      scalars: scalars, index: isAnchored ? 1 : 0, position: syntax.position,
      normalize: normalize)
    let root = reader.parseSequence(until: nil)
    // An alternative made only of punctuation normalises to nothing and would silently make its
    // bracket optional.
    reader.checkEmptyAlternatives(root)
    var sequences = reader.expand(root, slots: slots, lists: lists)
    if sequences.count > Pattern.expansionLimit {
      reader.report(0, .patternTooLarge(limit: Pattern.expansionLimit))
      sequences = Array(sequences.prefix(Pattern.expansionLimit))
    }
    sequences = Self.unique(sequences)
    if sequences.isEmpty, reader.diagnostics.isEmpty { reader.report(0, .emptyPattern) }
    for sequence in sequences where Self.hasAdjacentCaptures(sequence) {
      reader.report(0, .adjacentCaptures)
      break
    }
    guard reader.diagnostics.isEmpty else {
      return .failure(GrammarError(diagnostics: reader.diagnostics))
    }
    return .success(
      Pattern(
        source: syntax.source, sequences: sequences, isAnchored: isAnchored, isHeading: isHeading))
  }

  /// The non-empty sequences, each kept at its first occurrence.
  fileprivate static func unique(_ sequences: [[Pattern.Element]]) -> [[Pattern.Element]] {
    if sequences.count == 1 { return sequences[0].isEmpty ? [] : sequences }
    return firstOccurrences(of: sequences, where: { !$0.isEmpty })
  }

  /// The items `isIncluded` keeps, each at its first occurrence, in order.
  ///
  /// A pattern's sequences and a bracket's words are usually a handful: comparing them is
  /// cheaper than hashing them.
  private static func firstOccurrences<Item: Hashable>(
    of items: [Item], where isIncluded: (Item) -> Bool = { _ in true }
  ) -> [Item] {
    var unique: [Item] = []
    unique.reserveCapacity(items.count)
    if items.count <= 16 {
      for item in items where isIncluded(item) && !unique.contains(item) { unique.append(item) }
      return unique
    }
    var seen = Set<Item>(minimumCapacity: items.count)
    for item in items where isIncluded(item) && seen.insert(item).inserted { unique.append(item) }
    return unique
  }

  /// Appends `tail` to `head` as ``merged(_:_:)`` joins them.
  fileprivate static func append(_ tail: [Pattern.Element], to head: inout [Pattern.Element]) {
    guard !tail.isEmpty else { return }
    if case .literal(let a)? = head.last, case .literal(let b)? = tail.first {
      head[head.count - 1] = .literal(a + b)
      head.append(contentsOf: tail.dropFirst())
    } else {
      head.append(contentsOf: tail)
    }
  }

  /// Joins two element runs, fusing a literal at the seam so matching sees one literal.
  fileprivate static func merged(_ head: [Pattern.Element], _ tail: [Pattern.Element])
    -> [Pattern.Element]
  {
    guard !head.isEmpty else { return tail }
    var joined = head
    joined.reserveCapacity(head.count + tail.count)
    if case .literal(let a)? = head.last, case .literal(let b)? = tail.first {
      joined[joined.count - 1] = .literal(a + b)
      joined.append(contentsOf: tail.dropFirst())
    } else {
      joined.append(contentsOf: tail)
    }
    return joined
  }

  /// Unique options, longest first, so that matching tries the most specific word first.
  fileprivate static func longestFirst(_ words: [[Unicode.Scalar]]) -> [[Unicode.Scalar]] {
    let unique = firstOccurrences(of: words)
    // The sort is stable, so words already longest first stay as they are.
    if zip(unique, unique.dropFirst()).allSatisfy({ $0.count >= $1.count }) { return unique }
    return unique.sorted { $0.count > $1.count }
  }

  private static func hasAdjacentCaptures(_ sequence: [Pattern.Element]) -> Bool {
    zip(sequence, sequence.dropFirst()).contains { pair in
      if case .capture = pair.0, case .capture = pair.1 { return true }
      return false
    }
  }

  static func isNameScalar(_ s: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "_"
  }
}

extension Pattern.Element: Hashable {}

extension String {
  fileprivate func trimmingCharacters(in character: Character) -> String {
    var s = Substring(self)
    while s.first == character { s = s.dropFirst() }
    while s.last == character { s = s.dropLast() }
    return String(s)
  }
}

extension Diagnostic.Message {
  static func unclosedGroup(_ opener: String, closer: String) -> Self {
    "'\(opener)' is never closed; add '\(closer)'"
  }
  static func unbalanced(_ closer: String) -> Self {
    "'\(closer)' has no matching opening bracket; escape it as '\\\(closer)' to match it literally"
  }
  static func unknownList(_ name: String, suggestion: String?) -> Self {
    guard let suggestion else {
      return "unknown list '@\(name)'; declare it with 'list \(name): …'"
    }
    return "unknown list '@\(name)'; did you mean '@\(suggestion)'?"
  }
  static func unknownSlotInPattern(_ name: String, suggestion: String?) -> Self {
    guard let suggestion else {
      return
        "pattern names slot '\(name)', which the intent does not declare; add 'slot \(name): <type>'"
    }
    return
      "pattern names slot '\(name)', which the intent does not declare; did you mean '\(suggestion)'?"
  }
  static func patternTooLarge(limit: Int) -> Self {
    "pattern expands to more than \(limit) alternatives; split it into several 'pattern:' lines"
  }
  static func nestingTooDeep(limit: Int) -> Self {
    "brackets nest more than \(limit) deep; flatten the pattern or split it into several 'pattern:' lines"
  }
  static func emptyAlternative(_ text: String) -> Self {
    "alternative '\(text)' is empty once normalised (punctuation is ignored); remove it, or use '[…]' for an optional part"
  }
  static let emptyPattern: Self = "pattern matches nothing; write at least one word or placeholder"
  static let adjacentCaptures: Self =
    "two free-text parts ('*' or a text slot) are next to each other; put a word between them"
}

/// The sequences of a pattern flattened into plain arrays, so that matching reads values and
/// retains nothing per step.
struct PatternProgram: Sendable {
  /// One element of a sequence.
  struct Step: Sendable {
    enum Kind: UInt8, Sendable {
      case literal, anyOf, slot, capture
    }
    var kind: Kind
    /// A literal's scalars in `text`, or a list's options in `options`.
    var start: Int32
    var end: Int32
    /// The scalars the step can start with, in `firsts`; nil when it can start with anything.
    var firsts: Range<Int32>?
    /// A slot's or capture's name in `names`; -1 for an anonymous `*`.
    var name: Int32
    var type: EntityType
    /// Slots that refuse offsets from now.
    var isAbsolute: Bool
    /// Whether a placeholder or the sequence's edge is before or after the step: a literal
    /// there must begin or end on a token boundary of the utterance.
    var startsWord: Bool
    var endsWord: Bool
  }

  var steps: [Step] = []
  /// Sequence `i` is `steps[sequenceStarts[i]..<sequenceStarts[i + 1]]`.
  var sequenceStarts: [Int] = [0]
  /// The scalars of every literal and list option.
  var text: [Unicode.Scalar] = []
  /// List options as ranges of `text`.
  var options: [Range<Int32>] = []
  var firsts: [UInt32] = []
  var names: [String] = []
  /// For each sequence, the entity types its slots take, as bits by ``EntityType/rank``: a
  /// sequence whose slot types the utterance has no entity of cannot match.
  var slotTypes: [UInt16] = []
  /// For each sequence, whether it can match without a word of its own: every word in it is
  /// optional, so its slots alone may cover the text ("[我] [的] {metric} [是] [多少]").
  var wordless: [Bool] = []

  var sequenceCount: Int { sequenceStarts.count - 1 }

  init(_ sequences: [[Pattern.Element]]) {
    // Where each word set's options and first scalars already are, so that a set standing in
    // several sequences is stored once.
    // A pattern holds a few sets, so a list is searched faster than a dictionary is hashed.
    var stored: [(words: PatternWords, options: Range<Int32>, firsts: Range<Int32>?)] = []
    var stepCount = 0
    for sequence in sequences { stepCount += sequence.count }
    steps.reserveCapacity(stepCount)
    sequenceStarts.reserveCapacity(sequences.count + 1)
    slotTypes.reserveCapacity(sequences.count)
    for sequence in sequences {
      var types: UInt16 = 0
      for element in sequence {
        if case .slot(_, let type, _) = element { types |= 1 << UInt16(type.rank) }
      }
      slotTypes.append(types)
      wordless.append(
        !sequence.contains {
          switch $0 {
          case .literal: true
          case .anyOf(let words): !words.words.contains(where: \.isEmpty)
          case .slot, .capture: false
          }
        })
      for (index, element) in sequence.enumerated() {
        func isPlaceholder(_ i: Int) -> Bool {
          guard sequence.indices.contains(i) else { return true }
          switch sequence[i] {
          case .slot, .capture: return true
          case .literal, .anyOf: return false
          }
        }
        var step = Step(
          kind: .literal, start: 0, end: 0, firsts: nil, name: -1, type: .text,
          isAbsolute: false, startsWord: isPlaceholder(index - 1),
          endsWord: isPlaceholder(index + 1))
        if case .anyOf(let words) = element, let known = stored.first(where: { $0.words === words })
        {
          step.kind = .anyOf
          (step.start, step.end, step.firsts) =
            (known.options.lowerBound, known.options.upperBound, known.firsts)
          steps.append(step)
          continue
        }
        switch element {
        case .literal(let scalars):
          if let first = scalars.first(where: { $0 != " " }) {
            step.firsts = Int32(firsts.count)..<Int32(firsts.count + 1)
            firsts.append(first.value)
          }
          (step.start, step.end) = append(scalars)
        case .anyOf(let words):
          if let values = words.firsts {
            step.firsts = Int32(firsts.count)..<Int32(firsts.count + values.count)
            firsts += values
          }
          step.kind = .anyOf
          step.start = Int32(options.count)
          for option in words.words {
            let (start, end) = append(option)
            options.append(start..<end)
          }
          step.end = Int32(options.count)
          stored.append((words, step.start..<step.end, step.firsts))
        case .slot(let name, let type, let absolute):
          step.kind = .slot
          step.name = nameIndex(name)
          step.type = type
          step.isAbsolute = absolute
        case .capture(let name):
          step.kind = .capture
          if let name { step.name = nameIndex(name) }
        }
        steps.append(step)
      }
      sequenceStarts.append(steps.count)
    }
  }

  private mutating func append(_ scalars: [Unicode.Scalar]) -> (Int32, Int32) {
    let start = Int32(text.count)
    text += scalars
    return (start, Int32(text.count))
  }

  private mutating func nameIndex(_ name: String) -> Int32 {
    if let index = names.firstIndex(of: name) { return Int32(index) }
    names.append(name)
    return Int32(names.count - 1)
  }
}

/// Reads one pattern's text into a syntax tree and expands the tree into flat sequences,
/// collecting diagnostics as it goes.
///
/// A value whose mutating methods share the reading position, the diagnostics and whether the
/// brackets nested too deep.
private struct PatternReader {
  typealias Node = PatternCompiler.Node

  let scalars: [Unicode.Scalar]
  var index: Int
  let position: SourcePosition
  let normalize: (String) -> [Unicode.Scalar]
  var diagnostics: [Diagnostic] = []
  /// Set when brackets nest too deep: the rest of the pattern is skipped, and the brackets left
  /// open are not reported again.
  var isTooDeep = false

  mutating func report(_ offset: Int, _ message: Diagnostic.Message) {
    var position = position
    position.column += offset
    diagnostics.append(position.diagnostic(message))
  }

  mutating func parseSequence(until closer: Unicode.Scalar?, depth: Int = 0) -> Node {
    var alternatives: [[Node]] = [[]]
    // Text is gathered as UTF-8 and made a string once: appending scalars to a string one by
    // one costs many times more.
    var literal: [UInt8] = []
    while index < scalars.count {
      let c = scalars[index]
      if c == closer { break }
      switch c {
      case "|":
        flush(&literal, into: &alternatives[alternatives.count - 1])
        alternatives.append([])
        index += 1
      case "(", "[":
        flush(&literal, into: &alternatives[alternatives.count - 1])
        let open = index
        index += 1
        let closer: Unicode.Scalar = c == "(" ? ")" : "]"
        guard depth < Pattern.nestingLimit else {
          report(open, .nestingTooDeep(limit: Pattern.nestingLimit))
          isTooDeep = true
          index = scalars.count
          break
        }
        let inner = parseSequence(until: closer, depth: depth + 1)
        if index < scalars.count, scalars[index] == closer {
          index += 1
        } else if !isTooDeep {
          report(open, .unclosedGroup(String(c), closer: String(closer)))
        }
        alternatives[alternatives.count - 1].append(c == "[" ? .optional(inner) : inner)
      case ")", "]":
        report(index, .unbalanced(String(c)))
        index += 1
      case "{":
        flush(&literal, into: &alternatives[alternatives.count - 1])
        let open = index
        var name: [UInt8] = []
        index += 1
        while index < scalars.count, scalars[index] != "}" {
          Self.append(scalars[index], to: &name)
          index += 1
        }
        if index < scalars.count {
          index += 1
        } else {
          report(open, .unclosedGroup("{", closer: "}"))
        }
        alternatives[alternatives.count - 1].append(
          .slot(String(decoding: name, as: UTF8.self).trimmingCharacters(in: " "), column: open))
      case "@":
        flush(&literal, into: &alternatives[alternatives.count - 1])
        let start = index
        var name: [UInt8] = []
        index += 1
        while index < scalars.count, PatternCompiler.isNameScalar(scalars[index]) {
          name.append(UInt8(truncatingIfNeeded: scalars[index].value))
          index += 1
        }
        alternatives[alternatives.count - 1].append(
          .list(String(decoding: name, as: UTF8.self), column: start))
      case "*":
        flush(&literal, into: &alternatives[alternatives.count - 1])
        alternatives[alternatives.count - 1].append(.capture)
        index += 1
      case "\\" where index + 1 < scalars.count:
        Self.append(scalars[index + 1], to: &literal)
        index += 2
      default:
        Self.append(c, to: &literal)
        index += 1
      }
    }
    flush(&literal, into: &alternatives[alternatives.count - 1])
    if alternatives.count == 1 { return .sequence(alternatives[0]) }
    return .choice(alternatives.map { Node.sequence($0) })
  }

  /// Ends a run of literal text: it joins `parts` with its normalised form.
  func flush(_ literal: inout [UInt8], into parts: inout [Node]) {
    guard !literal.isEmpty else { return }
    let text = String(decoding: literal, as: UTF8.self)
    parts.append(.literal(text, normalized: normalize(text)))
    literal.removeAll(keepingCapacity: true)
  }

  @inline(__always)
  static func append(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
    if scalar.isASCII {
      bytes.append(UInt8(truncatingIfNeeded: scalar.value))
    } else {
      UTF8.encode(scalar) { bytes.append($0) }
    }
  }

  /// Reports each alternative that is only punctuation, which normalises to nothing.
  mutating func checkEmptyAlternatives(_ node: Node) {
    switch node {
    case .choice(let options):
      for option in options {
        if case .sequence(let parts) = option, parts.count == 1,
          case .literal(let text, let normalized) = parts[0],
          normalized.allSatisfy({ $0 == " " })
        {
          report(0, .emptyAlternative(text))
        }
        checkEmptyAlternatives(option)
      }
    case .sequence(let parts):
      for part in parts { checkEmptyAlternatives(part) }
    case .optional(let inner): checkEmptyAlternatives(inner)
    case .literal, .list, .slot, .capture: break
    }
  }

  /// Every flat sequence `node` stands for; brackets of plain words become one word set.
  mutating func expand(
    _ node: Node, slots: [String: SlotSpec], lists: [String: PatternWords]
  ) -> [[Pattern.Element]] {
    switch node {
    case .literal(_, let normalized):
      return [normalized.isEmpty ? [] : [.literal(normalized)]]
    case .capture:
      return [[.capture(name: nil)]]
    case .list(let name, let column):
      guard let items = lists[name] else {
        let suggestion = Diagnostic.Message.suggestion(for: name, among: lists.keys.sorted())
        report(column, .unknownList(name, suggestion: suggestion))
        return [[]]
      }
      return [[.anyOf(items)]]
    case .slot(let name, let column):
      guard let spec = slots[name] else {
        let suggestion = Diagnostic.Message.suggestion(for: name, among: slots.keys.sorted())
        report(column, .unknownSlotInPattern(name, suggestion: suggestion))
        return [[]]
      }
      return [
        [
          spec.type == .text
            ? .capture(name: name) : .slot(name: name, type: spec.type, absolute: spec.isAbsolute)
        ]
      ]
    case .optional(let inner):
      if !Self.hasPlaceholder(inner), let words = Self.plainWords(inner) {
        return [[.anyOf(PatternWords(PatternCompiler.longestFirst(words + [[]])))]]
      }
      return [[]] + expand(inner, slots: slots, lists: lists)
    case .choice(let options):
      if !Self.hasPlaceholder(node), let words = Self.plainWords(node) {
        return [[.anyOf(PatternWords(PatternCompiler.longestFirst(words)))]]
      }
      var result: [[Pattern.Element]] = []
      for option in options { result += expand(option, slots: slots, lists: lists) }
      return result
    case .sequence(let parts):
      var result: [[Pattern.Element]] = [[]]
      for part in parts {
        // A literal, or any part that expands to one run, extends every sequence in place: the
        // same as joining each with that run, without a new array per sequence.
        if case .literal(_, let normalized) = part {
          if !normalized.isEmpty {
            for index in result.indices {
              PatternCompiler.append([.literal(normalized)], to: &result[index])
            }
          }
          continue
        }
        let tails = expand(part, slots: slots, lists: lists)
        if tails.count == 1 {
          for index in result.indices { PatternCompiler.append(tails[0], to: &result[index]) }
          continue
        }
        var next: [[Pattern.Element]] = []
        next.reserveCapacity(result.count * tails.count)
        for head in result {
          for tail in tails {
            next.append(PatternCompiler.merged(head, tail))
            if next.count > Pattern.expansionLimit { return next }
          }
        }
        result = next
      }
      return result
    }
  }

  /// Whether `node` holds a slot, list or free text, so that it cannot be one word set.
  static func hasPlaceholder(_ node: Node) -> Bool {
    switch node {
    case .literal: return false
    case .list, .slot, .capture: return true
    case .optional(let inner): return hasPlaceholder(inner)
    case .choice(let parts), .sequence(let parts): return parts.contains { hasPlaceholder($0) }
    }
  }

  /// The words a bracket without placeholders can match, or nil when it holds placeholders.
  static func plainWords(_ node: Node) -> [[Unicode.Scalar]]? {
    var words: [[Unicode.Scalar]] = []
    return appendPlainWords(of: node, to: &words) ? words : nil
  }

  /// Appends the words of ``plainWords(_:)`` to `words`; false when there are none.
  ///
  /// A sequence expanding to more than ``Pattern/expansionLimit`` words has none.
  private static func appendPlainWords(of node: Node, to words: inout [[Unicode.Scalar]]) -> Bool {
    switch node {
    case .literal(_, let normalized):
      words.append(normalized)
      return true
    case .list, .slot, .capture:
      return false
    case .optional(let inner):
      guard appendPlainWords(of: inner, to: &words) else { return false }
      words.append([])
      return true
    case .choice(let options):
      for option in options {
        guard appendPlainWords(of: option, to: &words) else { return false }
      }
      return true
    case .sequence(let parts):
      if parts.isEmpty {
        words.append([])
        return true
      }
      if parts.count == 1 {
        let before = words.count
        guard appendPlainWords(of: parts[0], to: &words) else { return false }
        return words.count - before <= Pattern.expansionLimit
      }
      var product: [[Unicode.Scalar]] = [[]]
      for part in parts {
        guard let tails = plainWords(part) else { return false }
        if product.count * tails.count > Pattern.expansionLimit { return false }
        var next: [[Unicode.Scalar]] = []
        next.reserveCapacity(product.count * tails.count)
        for head in product {
          for tail in tails { next.append(head + tail) }
        }
        product = next
      }
      words += product
      return true
    }
  }
}
