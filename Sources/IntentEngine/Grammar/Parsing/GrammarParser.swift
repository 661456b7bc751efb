import Foundation

/// Reads grammar files into syntax trees, collecting every problem instead of stopping at the first.
struct GrammarParser {
  let path: String
  let language: String
  private(set) var diagnostics: [Diagnostic] = []

  init(path: String, language: String) {
    self.path = path
    self.language = language
  }

  /// The directives an intent body accepts, for suggestions.
  static let directives = [
    "description", "threshold", "slot", "prompt", "keywords", "exclude", "pattern", "example",
    "not",
  ]

  /// Parses one file.
  mutating func parse(_ source: String) -> GrammarFileSyntax {
    var file = GrammarFileSyntax(path: path, language: language)
    let lines = GrammarLine.lines(of: source)
    var index = 0
    while index < lines.count {
      let line = lines[index]
      index += 1
      guard line.indent == 0 else {
        report(at: line, line.content.startIndex, .unexpectedIndent)
        continue
      }
      let (keyword, rest) = Self.splitWord(line.content)
      switch keyword {
      case "intent":
        var intent = parseIntentHeader(line, rest)
        while index < lines.count, lines[index].indent > 0 {
          index = parseIntentLine(lines, index, into: &intent)
        }
        if let intent { file.intents.append(intent) }
      case "list":
        var list = parseListHeader(line, rest)
        while index < lines.count, lines[index].indent > 0 {
          list?.items += items(of: lines[index], from: lines[index].content.startIndex)
          index += 1
        }
        if let list { file.lists.append(list) }
      default:
        report(at: line, line.content.startIndex, .unknownTopLevel(String(keyword)))
        while index < lines.count, lines[index].indent > 0 { index += 1 }
      }
    }
    return file
  }

  // MARK: - Blocks

  private mutating func parseIntentHeader(_ line: GrammarLine, _ rest: Substring) -> IntentSyntax? {
    let id = rest.trimmingSpaces
    guard !id.isEmpty else {
      report(at: line, line.content.endIndex, .missingIntentID)
      return nil
    }
    let idStart = id.startIndex
    if !IntentSyntaxRules.isValidID(String(id)) {
      report(at: line, idStart, .invalidIntentID(String(id)))
    }
    return IntentSyntax(id: String(id), position: position(line, idStart), language: language)
  }

  private mutating func parseListHeader(_ line: GrammarLine, _ rest: Substring) -> ListSyntax? {
    let (name, afterName) = Self.splitName(rest)
    guard !name.isEmpty else {
      report(at: line, rest.startIndex, .missingListName)
      return nil
    }
    var list = ListSyntax(name: String(name), position: position(line, name.startIndex), items: [])
    let tail = afterName.trimmingSpaces
    if tail.unicodeScalars.first == ":" {
      list.items = items(of: line, from: tail.index(after: tail.startIndex))
    } else if !tail.isEmpty {
      report(at: line, tail.startIndex, .expectedColon(after: "list \(name)"))
    }
    return list
  }

  /// Parses the directive at `lines[index]` and its continuation lines; returns the next index.
  private mutating func parseIntentLine(
    _ lines: [GrammarLine], _ index: Int, into intent: inout IntentSyntax?
  ) -> Int {
    let line = lines[index]
    var next = index + 1
    let (word, rest) = Self.splitDirective(line.content)
    let directive = String(word)
    // Continuation lines belong to the directive above them when indented deeper.
    var continuation: [GrammarLine] = []
    while next < lines.count, lines[next].indent > line.indent {
      continuation.append(lines[next])
      next += 1
    }
    func allItems(from start: Substring.Index) -> [GrammarItem] {
      var found = items(of: line, from: start)
      for more in continuation { found += items(of: more, from: more.content.startIndex) }
      return found
    }
    func rejectContinuation() {
      for more in continuation { report(at: more, more.content.startIndex, .unexpectedIndent) }
    }

    switch directive {
    case "description":
      guard let value = value(afterColonIn: line, rest, directive: directive) else { break }
      var text = String(value)
      for more in continuation { text += " " + more.content }
      intent?.description = text
    case "threshold":
      rejectContinuation()
      guard let value = value(afterColonIn: line, rest, directive: directive) else { break }
      if let number = Double(value), number >= 0, number <= 1 {
        intent?.threshold = number
      } else {
        report(at: line, value.startIndex, .invalidThreshold(String(value)))
      }
    case "slot":
      rejectContinuation()
      if let slot = parseSlot(line, rest) { intent?.slots.append(slot) }
    case "prompt":
      rejectContinuation()
      let (name, afterName) = Self.splitName(rest)
      guard !name.isEmpty else {
        report(at: line, rest.startIndex, .missingSlotName)
        break
      }
      guard let text = value(afterColonIn: line, afterName, directive: "prompt \(name)") else {
        break
      }
      intent?.prompts.append(
        PromptSyntax(
          slot: String(name), text: String(text), position: position(line, name.startIndex)))
    case "keywords":
      guard let (header, colon) = header(in: line, rest, directive: directive) else { break }
      let (name, options) = Self.splitName(header)
      if name.isEmpty { report(at: line, header.startIndex, .missingGroupName) }
      let parsed = parseOptions(line, options, allowed: ["weight", "required"])
      let group = KeywordGroupSyntax(
        name: String(name), weight: parsed.weight ?? 1,
        isRequired: parsed.flags.contains("required"),
        position: position(line, name.isEmpty ? header.startIndex : name.startIndex),
        items: allItems(from: colon))
      if group.items.isEmpty { report(at: line, colon, .emptyItems("keywords")) }
      intent?.groups.append(group)
    case "exclude":
      guard let (header, colon) = header(in: line, rest, directive: directive) else { break }
      let parsed = parseOptions(
        line, header,
        allowed: ["veto", "penalty", "statement", "others", "decline", "done", "making", "final"])
      var flags: ExcludeFlags = []
      if parsed.flags.contains("statement") { flags.insert(.statement) }
      if parsed.flags.contains("others") { flags.insert(.others) }
      if parsed.flags.contains("decline") { flags.insert(.decline) }
      if parsed.flags.contains("done") { flags.insert(.done) }
      if parsed.flags.contains("making") { flags.insert(.making) }
      if parsed.flags.contains("final") { flags.insert(.final) }
      let exclude = ExcludeSyntax(
        penalty: parsed.flags.contains("veto") ? nil : parsed.penalty, flags: flags,
        position: position(line, word.startIndex), items: allItems(from: colon))
      if exclude.items.isEmpty { report(at: line, colon, .emptyItems("exclude")) }
      intent?.excludes.append(exclude)
    case "pattern":
      rejectContinuation()
      guard let value = value(afterColonIn: line, rest, directive: directive) else { break }
      intent?.patterns.append(
        PatternSyntax(source: String(value), position: position(line, value.startIndex)))
    case "example", "not":
      rejectContinuation()
      guard let value = value(afterColonIn: line, rest, directive: directive) else { break }
      if let example = parseExample(line, value, isCounterexample: directive == "not") {
        intent?.examples.append(example)
      }
    default:
      let suggestion = Diagnostic.Message.suggestion(for: directive, among: Self.directives)
      report(at: line, word.startIndex, .unknownDirective(directive, suggestion: suggestion))
    }
    return next
  }

  // MARK: - Directives

  private mutating func parseSlot(_ line: GrammarLine, _ rest: Substring) -> SlotSyntax? {
    let (name, afterName) = Self.splitName(rest)
    guard !name.isEmpty else {
      report(at: line, rest.startIndex, .missingSlotName)
      return nil
    }
    let tail = afterName.trimmingSpaces
    guard tail.unicodeScalars.first == ":" else {
      report(at: line, tail.startIndex, .expectedColon(after: "slot \(name)"))
      return nil
    }
    let words = tail.dropFirst().split(separator: " ", omittingEmptySubsequences: true)
    guard let type = words.first else {
      report(at: line, tail.endIndex, .missingSlotType(String(name)))
      return nil
    }
    var isRequired = false
    var isAbsolute = false
    var isShort = false
    var isSigned = false
    for extra in words.dropFirst() {
      if extra == "required" {
        isRequired = true
      } else if extra == "absolute" {
        isAbsolute = true
      } else if extra == "short" {
        isShort = true
      } else if extra == "signed" {
        isSigned = true
      } else {
        report(at: line, extra.startIndex, .unknownSlotFlag(String(extra)))
      }
    }
    return SlotSyntax(
      name: String(name), type: String(type), isRequired: isRequired, isAbsolute: isAbsolute,
      isShort: isShort, isSigned: isSigned, position: position(line, name.startIndex),
      typePosition: position(line, type.startIndex))
  }

  private mutating func parseExample(
    _ line: GrammarLine, _ value: Substring, isCounterexample: Bool
  ) -> ExampleSyntax? {
    var text = value
    var slots: [(String, String)] = []
    if let arrow = value.range(of: "=>") {
      text = value[..<arrow.lowerBound].trimmingSpaces
      if isCounterexample {
        report(at: line, arrow.lowerBound, .slotsOnCounterexample)
      }
      for assignment in value[arrow.upperBound...].split(separator: ",") {
        let parts = assignment.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, !parts[0].trimmingSpaces.isEmpty else {
          report(
            at: line, assignment.startIndex,
            .invalidSlotAssignment(String(assignment.trimmingSpaces)))
          continue
        }
        slots.append((String(parts[0].trimmingSpaces), String(parts[1].trimmingSpaces)))
      }
    }
    guard !text.isEmpty else {
      report(at: line, value.startIndex, .emptyExample)
      return nil
    }
    return ExampleSyntax(
      text: String(text), expectedSlots: slots, isCounterexample: isCounterexample,
      position: position(line, text.startIndex))
  }

  private struct Options {
    var weight: Double?
    var penalty: Double?
    /// The flags given, each once: a handful, so a list is cheaper than a set.
    var flags: [String] = []
  }

  /// Reads `(weight 2, required)` style options.
  private mutating func parseOptions(_ line: GrammarLine, _ text: Substring, allowed: [String])
    -> Options
  {
    var options = Options()
    let trimmed = text.trimmingSpaces
    guard !trimmed.isEmpty else { return options }
    guard trimmed.unicodeScalars.first == "(", trimmed.unicodeScalars.last == ")" else {
      report(at: line, trimmed.startIndex, .expectedOptions)
      return options
    }
    let inner = trimmed.dropFirst().dropLast()
    // In ASCII text every scalar is a character, so splitting scalars splits the same characters.
    let isASCII = inner.utf8.allSatisfy { $0 < 0x80 }
    let parts =
      isASCII
      ? inner.utf8.split(separator: UInt8(ascii: ",")).map { Substring($0) }
      : inner.split(separator: ",")
    for option in parts {
      let words =
        isASCII
        ? option.utf8.split(separator: UInt8(ascii: " ")).map { Substring($0) }
        : option.split(separator: " ")
      guard let name = words.first else { continue }
      let key = String(name)
      guard allowed.contains(key) else {
        let suggestion = Diagnostic.Message.suggestion(for: key, among: allowed)
        report(at: line, name.startIndex, .unknownOption(key, suggestion: suggestion))
        continue
      }
      switch key {
      case "weight", "penalty":
        guard words.count == 2, let number = Double(words[1]), number.isFinite, number >= 0,
          number <= 100
        else {
          report(at: line, name.startIndex, .invalidNumberOption(key))
          continue
        }
        if key == "weight" { options.weight = number } else { options.penalty = number }
      default:
        if words.count != 1 { report(at: line, words[1].startIndex, .unexpectedValue(key)) }
        if !options.flags.contains(key) { options.flags.append(key) }
      }
    }
    if allowed.contains("penalty"), options.penalty == nil, !options.flags.contains("veto") {
      report(at: line, trimmed.startIndex, .excludeNeedsKind)
    }
    return options
  }

  // MARK: - Pieces

  private mutating func value(afterColonIn line: GrammarLine, _ rest: Substring, directive: String)
    -> Substring?
  {
    let trimmed = rest.trimmingSpaces
    guard trimmed.unicodeScalars.first == ":" else {
      report(at: line, trimmed.startIndex, .expectedColon(after: directive))
      return nil
    }
    let value = trimmed.dropFirst().trimmingSpaces
    guard !value.isEmpty else {
      report(at: line, trimmed.endIndex, .missingValue(directive))
      return nil
    }
    return value
  }

  /// Splits `name (options): items` at the first colon outside parentheses.
  private mutating func header(in line: GrammarLine, _ rest: Substring, directive: String) -> (
    Substring, Substring.Index
  )? {
    // ASCII bytes up to the colon each make one character, so bytes can be read in place of the
    // characters; any other byte falls back to reading characters.
    var depth = 0
    let utf8 = rest.utf8
    var byteIndex = utf8.startIndex
    bytes: while byteIndex < utf8.endIndex, utf8[byteIndex] < 0x80 {
      switch utf8[byteIndex] {
      case UInt8(ascii: "("): depth += 1
      case UInt8(ascii: ")"): depth -= 1
      case UInt8(ascii: ":") where depth == 0:
        let after = utf8.index(after: byteIndex)
        guard after == utf8.endIndex || utf8[after] < 0x80 else { break bytes }
        return (rest[rest.startIndex..<byteIndex], after)
      default: break
      }
      byteIndex = utf8.index(after: byteIndex)
    }
    depth = 0
    var index = rest.startIndex
    while index < rest.endIndex {
      switch rest[index] {
      case "(": depth += 1
      case ")": depth -= 1
      case ":" where depth == 0:
        return (rest[rest.startIndex..<index], rest.index(after: index))
      default: break
      }
      index = rest.index(after: index)
    }
    report(at: line, rest.endIndex, .expectedColon(after: directive))
    return nil
  }

  /// Splits comma-separated items (`,`, `，` or `、`) starting at `start`.
  private func items(of line: GrammarLine, from start: Substring.Index) -> [GrammarItem] {
    let content = line.content
    let offset = content.utf8.distance(from: content.startIndex, to: start)
    if let found = content.utf8.withContiguousStorageIfAvailable({
      items(of: line, bytes: $0, from: offset)
    }) {
      return found
    }
    var copy = String(content)
    copy.makeContiguousUTF8()
    return copy.withUTF8 { items(of: line, bytes: $0, from: offset) }
  }

  /// Splits the items of `line`, whose content is `bytes`, from byte `start` on.
  ///
  /// Walks UTF-8 bytes once, counting columns in scalars as it goes: lists can hold hundreds of
  /// words. A word runs from its first to its last non-space scalar and is copied out once.
  private func items(of line: GrammarLine, bytes: UnsafeBufferPointer<UInt8>, from start: Int)
    -> [GrammarItem]
  {
    var found: [GrammarItem] = []
    // Every byte but a UTF-8 continuation byte starts a scalar.
    var column = line.column
    for byte in bytes[..<start] where byte & 0xC0 != 0x80 { column += 1 }
    var wordStart = -1
    var wordEnd = start
    var wordColumn = column
    var hasBackslash = false
    func flush() {
      if wordStart >= 0 {
        let word = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[wordStart..<wordEnd]), as: UTF8.self)
        found.append(
          GrammarItem(
            text: hasBackslash && word.contains("\\#")
              ? word.replacingOccurrences(of: "\\#", with: "#") : word,
            position: SourcePosition(path: path, line: line.number, column: wordColumn)))
      }
      wordStart = -1
      hasBackslash = false
    }
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      var next = index + 1
      if byte >= 0x80 {
        while next < bytes.count, bytes[next] & 0xC0 == 0x80 { next += 1 }
      }
      switch byte {
      case UInt8(ascii: ","):
        flush()
      // "，" (U+FF0C) and "、" (U+3001).
      case 0xEF where next - index == 3 && bytes[index + 1] == 0xBC && bytes[index + 2] == 0x8C:
        flush()
      case 0xE3 where next - index == 3 && bytes[index + 1] == 0x80 && bytes[index + 2] == 0x81:
        flush()
      case UInt8(ascii: " "), UInt8(ascii: "\t"):
        break
      default:
        if wordStart < 0 {
          wordStart = index
          wordColumn = column
        }
        hasBackslash = hasBackslash || byte == UInt8(ascii: "\\")
        wordEnd = next
      }
      column += 1
      index = next
    }
    flush()
    return found
  }

  private func position(_ line: GrammarLine, _ index: Substring.Index) -> SourcePosition {
    SourcePosition(path: path, line: line.number, column: line.column(of: index))
  }

  private mutating func report(
    at line: GrammarLine, _ index: Substring.Index, _ message: Diagnostic.Message
  ) {
    diagnostics.append(position(line, index).diagnostic(message))
  }

  /// Splits off the first space-separated word.
  static func splitWord(_ text: Substring) -> (Substring, Substring) {
    let end = text.unicodeScalars.firstIndex(of: " ") ?? text.endIndex
    return (text[..<end], text[end...])
  }

  /// Splits off a directive word, which ends at a space, colon or parenthesis.
  static func splitDirective(_ text: Substring) -> (Substring, Substring) {
    let end =
      text.unicodeScalars.firstIndex { $0 == " " || $0 == ":" || $0 == "(" } ?? text.endIndex
    return (text[..<end], text[end...])
  }

  /// Splits off a name, which ends at a space, colon or parenthesis.
  static func splitName(_ text: Substring) -> (Substring, Substring) {
    let trimmed = text.trimmingSpaces
    return splitDirective(trimmed)
  }
}

/// Rules for names written in grammars.
enum IntentSyntaxRules {
  /// Whether `id` is `domain.action` in lower-case ASCII letters, digits and underscores.
  static func isValidID(_ id: String) -> Bool {
    let parts = id.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return false }
    return parts.allSatisfy { part in
      guard let first = part.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
      return part.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
      }
    }
  }
}

extension String {
  func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}

extension Substring {
  /// The substring without leading and trailing spaces and tabs.
  var trimmingSpaces: Substring {
    // Scalar-wise: every delimiter is ASCII, and grapheme breaking is the slow part of `first`.
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else {
      return self[endIndex...]
    }
    let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) ?? first
    return self[first...last]
  }

  func replacingOccurrences(of target: String, with replacement: String) -> String {
    String(self).split(separator: target, omittingEmptySubsequences: false).joined(
      separator: replacement)
  }
}

extension Diagnostic.Message {
  static let unexpectedIndent: Self =
    "unexpected indentation; directives belong under an 'intent' or 'list' line"
  static func unknownTopLevel(_ word: String) -> Self {
    "unknown declaration '\(word)'; a file holds 'intent <domain.action>' and 'list <name>: …' blocks"
  }
  static let missingIntentID: Self = "expected an intent id such as 'timer.start' after 'intent'"
  static func invalidIntentID(_ id: String) -> Self {
    "intent id '\(id)' is not of the form 'domain.action' in lower-case letters, digits and '_'"
  }
  static let missingListName: Self = "expected a list name after 'list'"
  static let missingGroupName: Self =
    "expected a group name after 'keywords', such as 'keywords trigger (weight 2): …'"
  static let missingSlotName: Self = "expected a slot name, such as 'slot duration: duration'"
  static func missingSlotType(_ name: String) -> Self {
    "slot '\(name)' needs an entity type, such as 'slot \(name): text'"
  }
  static func unknownSlotFlag(_ flag: String) -> Self {
    "unknown slot flag '\(flag)'; a slot may be 'required', for times 'absolute', for durations and text 'short', for durations 'signed'"
  }
  static func expectedColon(after what: String) -> Self { "expected ':' after '\(what)'" }
  static func missingValue(_ directive: String) -> Self { "'\(directive)' needs a value after ':'" }
  static func invalidThreshold(_ value: String) -> Self {
    "threshold '\(value)' is not a number between 0 and 1"
  }
  static func emptyItems(_ directive: String) -> Self {
    "'\(directive)' lists no words; separate words with ','"
  }
  static func unknownDirective(_ word: String, suggestion: String?) -> Self {
    guard let suggestion else {
      return
        "unknown directive '\(word)'; expected one of \(GrammarParser.directives.joined(separator: ", "))"
    }
    return "unknown directive '\(word)'; did you mean '\(suggestion)'?"
  }
  static let expectedOptions: Self =
    "expected options in parentheses, such as '(weight 2, required)'"
  static func unknownOption(_ name: String, suggestion: String?) -> Self {
    guard let suggestion else { return "unknown option '\(name)'" }
    return "unknown option '\(name)'; did you mean '\(suggestion)'?"
  }
  static func invalidNumberOption(_ name: String) -> Self {
    "'\(name)' needs a number between 0 and 100, such as '\(name) 1.5'"
  }
  static func unexpectedValue(_ name: String) -> Self { "option '\(name)' takes no value" }
  static let excludeNeedsKind: Self =
    "an exclude is either '(veto)' or '(penalty N)', optionally marked 'statement', 'others', 'decline' or 'done'"
  static let slotsOnCounterexample: Self =
    "a 'not:' line cannot expect slots; remove the '=> …' part"
  static func invalidSlotAssignment(_ text: String) -> Self {
    "expected 'slot=value' in '\(text)'"
  }
  static let emptyExample: Self = "an example needs text before '=>'"
}
