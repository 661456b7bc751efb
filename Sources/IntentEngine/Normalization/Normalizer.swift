import Foundation

/// Turns raw utterances into the normalised text that tokens, keywords and entities are read from.
///
/// The steps, in order:
/// 1. NFKC, full-width → half-width and case folding (ASCII and CJK take an integer fast path;
///    other scripts go through Foundation's NFKC in runs of at most 64 scalars).
/// 2. Traditional → simplified Chinese for a few hundred common characters
///    (see `TraditionalChinese`), and dialect words (Cantonese, Wu, northern) as their Mandarin
///    equivalents (see `DialectWords`).
/// 3. Punctuation, symbols, whitespace and control characters become a single space; format
///    characters (RTL marks, zero-width joiners) are dropped. `:` `.` `/` `-` survive between
///    digits (`8:10`, `1.5`, `12/25`), `.` between ASCII letters or digits (`a.m`, `google.com`)
///    and `'` between letters (`o'clock`, `xi'an`); `@` not written against a word is read "at"
///    ("remind me @ 5"), and `+` before a number "plus" ("timer +3 min").
/// 4. Numbers become ASCII digits (see `NumeralReader`): Chinese numerals (十五 → 15,
///    一百零五 → 105, 两 → 2, 一千二 → 1200, 3万 → 30000), English number words (twenty-five → 25)
///    and ranges (两三 → `2-3`, "two or three" → `2-3`, 十五六 → `15-16`), each listed in
///    `NormalizedText.numbers`. Idioms and function words keep their 一 (一下, 一起, 一点儿, 一直,
///    万一 …), as do weekdays (周一, 星期三), place names (四川, 三亚, 六安) and 十分 meaning "very".
///    半 and 刻 stay words: their value depends on the unit after them, which the entity
///    extractors read.
///
/// Grammar keywords go through the same normaliser, so a keyword and an utterance always agree.
public struct Normalizer: Sendable {
  /// Creates a normaliser; its tables are built once per process and shared.
  public init() {}

  /// Normalises `text`, keeping a map from every normalised scalar back to the original.
  ///
  /// - Complexity: O(n) in the number of scalars of `text`.
  public func normalize(_ text: String) -> NormalizedText {
    let input = text.scalarArray
    var folded = ScalarFolder()
    folded.fold(input)
    DialectWords.rewrite(&folded.output.scalars)
    var reader = NumeralReader(base: folded.output)
    reader.read()
    return NormalizedText(
      original: text, originalScalars: input, scalars: reader.scalars,
      sourceStarts: reader.starts, sourceEnds: reader.ends, numbers: reader.numbers)
  }

  /// Normalises a grammar word or place name to its scalars alone, the same as
  /// `normalize(text).scalars`.
  ///
  /// Grammars and gazetteers load thousands of words, most of them plain; those skip the offset
  /// map (see ``plainScalars(of:)``).
  func scalars(of text: String) -> [Unicode.Scalar] {
    plainScalars(of: text) ?? normalize(text).scalars
  }

  /// The normal form of a plain word, or nil when `text` needs the full normaliser.
  ///
  /// Plain means Latin letters and CJK ideographs with single spaces between them, where no
  /// ideograph is a traditional form or a numeral and no Latin word is a number word. Such text
  /// normalises to itself in lower case: steps 1–4 change nothing else in it.
  func plainScalars(of text: String) -> [Unicode.Scalar]? {
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(text.utf8.count)
    var letterRun: Int?
    for scalar in text.unicodeScalars {
      var value = scalar.value
      if value &- 0x41 < 26 { value += 0x20 }
      if value &- 0x61 < 26 {
        if letterRun == nil { letterRun = result.count }
        result.append(Unicode.Scalar(UInt8(value)))
        continue
      }
      if let start = letterRun {
        guard EnglishNumerals.words.value(for: result[start...]) == nil else { return nil }
        letterRun = nil
      }
      if value == 0x20 {
        guard let last = result.last, last != " " else { return nil }
        result.append(scalar)
      } else if value >= 0x4E00, value < 0xA000, TraditionalChinese.simplified(value) == value,
        ChineseNumerals.kind(of: value) == nil
      {
        result.append(scalar)
      } else {
        return nil
      }
    }
    if let start = letterRun {
      guard EnglishNumerals.words.value(for: result[start...]) == nil else { return nil }
    }
    guard result.last != " " else { return nil }
    DialectWords.rewrite(&result)
    return result
  }
}

/// Normalised scalars with their source offsets, as built up by one pass.
struct ScalarBuffer {
  var scalars: [Unicode.Scalar] = []
  var starts: [Int32] = []
  var ends: [Int32] = []

  init(capacity: Int) {
    scalars.reserveCapacity(capacity)
    starts.reserveCapacity(capacity)
    ends.reserveCapacity(capacity)
  }

  var count: Int { scalars.count }

  @inline(__always)
  mutating func append(_ scalar: Unicode.Scalar, _ start: Int32, _ end: Int32) {
    scalars.append(scalar)
    starts.append(start)
    ends.append(end)
  }

  @inline(__always)
  mutating func removeLast() {
    scalars.removeLast()
    starts.removeLast()
    ends.removeLast()
  }
}

/// Steps 1–3 of normalisation: NFKC, width, case, script and punctuation.
struct ScalarFolder {
  var output = ScalarBuffer(capacity: 0)
  /// A space waits here until a non-space follows, so runs collapse and the ends are trimmed.
  private var pendingSpace: Int32?
  /// A `:` `.` `/` `-` or `'` that survives only if the right kind of scalar follows.
  private var pendingJoiner: (scalar: Unicode.Scalar, start: Int32, end: Int32)?
  /// The original offset one past the last scalar appended, to detect combining sequences.
  private var lastAppendedSourceEnd: Int32 = -1

  /// The text being folded, for the few marks whose reading depends on what follows them.
  private var source: [Unicode.Scalar] = []

  /// The longest run of non-fast-path scalars handed to NFKC at once, bounding its cost.
  private static let maxSlowRun = 64

  mutating func fold(_ input: [Unicode.Scalar]) {
    output = ScalarBuffer(capacity: input.count)
    source = input
    var i = 0
    while i < input.count {
      let value = input[i].value
      if value < 0x80 || (value >= 0x4E00 && value < 0xA000) || (value >= 0xFF01 && value <= 0xFF5E)
        || value == 0x3000 || value == 0x3001 || value == 0x3002
      {
        emit(input[i], Int32(i), Int32(i + 1))
        i += 1
        continue
      }
      // Slow path: a run of other scalars, plus the base letter before a combining mark.
      var start = i
      if lastAppendedSourceEnd == Int32(i), i > 0, input[i - 1].value < 0x80,
        isASCIILetter(input[i - 1].value), output.count > 0, pendingJoiner == nil,
        pendingSpace == nil
      {
        output.removeLast()
        start = i - 1
      }
      var end = i + 1
      while end < input.count, end - start < Self.maxSlowRun {
        let next = input[end].value
        if next < 0x80 || (next >= 0x4E00 && next < 0xA000) { break }
        end += 1
      }
      var run = ""
      run.unicodeScalars.append(contentsOf: input[start..<end])
      for scalar in run.precomposedStringWithCompatibilityMapping.unicodeScalars {
        emitFolded(scalar, Int32(start), Int32(end))
      }
      i = end
    }
  }

  /// Emits one scalar that has not been through NFKC but is known to be NFKC-stable apart from
  /// the full-width forms, which are mapped here.
  @inline(__always)
  private mutating func emit(_ scalar: Unicode.Scalar, _ start: Int32, _ end: Int32) {
    var value = scalar.value
    if value >= 0xFF01 && value <= 0xFF5E { value -= 0xFEE0 }
    if value < 0x80 {
      emitASCII(value, start, end)
    } else if value == 0x3000 || value == 0x3001 || value == 0x3002 {
      space(start)
    } else {
      append(value: TraditionalChinese.simplified(value), start, end)
    }
  }

  /// Emits one scalar produced by NFKC.
  private mutating func emitFolded(_ scalar: Unicode.Scalar, _ start: Int32, _ end: Int32) {
    let value = scalar.value
    if value < 0x80 {
      emitASCII(value, start, end)
      return
    }
    if value >= 0x3400 && value < 0xA000 {
      append(value: TraditionalChinese.simplified(value), start, end)
      return
    }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .uppercaseLetter, .titlecaseLetter:
      for lower in properties.lowercaseMapping.unicodeScalars {
        append(value: lower.value, start, end)
      }
    case .lowercaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark,
      .enclosingMark, .letterNumber, .otherNumber:
      append(value: value, start, end)
    case .decimalNumber:
      if let digit = properties.numericValue, digit >= 0, digit <= 9 {
        emitASCII(0x30 + UInt32(digit), start, end)
      } else {
        append(value: value, start, end)
      }
    case .format, .surrogate, .privateUse, .unassigned:
      break
    default:
      space(start)
    }
  }

  @inline(__always)
  private mutating func emitASCII(_ value: UInt32, _ start: Int32, _ end: Int32) {
    switch value {
    case 0x41...0x5A: append(value: value + 0x20, start, end)
    case 0x61...0x7A, 0x30...0x39: append(value: value, start, end)
    case 0x3A, 0x2E, 0x2F, 0x2D, 0x27:  // : . / - '
      guard pendingSpace == nil, pendingJoiner == nil, let last = output.scalars.last else {
        space(start)
        return
      }
      let lastValue = last.value
      let keep: Bool
      switch value {
      case 0x27: keep = isASCIILetter(lastValue)
      case 0x2E: keep = isASCIIAlphanumeric(lastValue)
      default: keep = isASCIIDigit(lastValue)
      }
      if keep {
        pendingJoiner = (Unicode.Scalar(UInt8(value)), start, end)
      } else {
        space(start)
      }
    case 0x2B where startsNumber(at: end):
      // "timer +3 min", "计时器+10分钟": a plus sign before a number is said "plus".
      plus(at: start)
    case 0x40 where output.count == 0 || pendingSpace != nil:
      // "remind me @ 5": '@' standing alone is read "at"; inside an address it stays a break.
      space(start)
      append(value: 0x61, start, end)
      append(value: 0x74, start, end)
      space(start)
    default:
      space(start)
    }
  }

  /// Whether the source scalar at `offset` is a digit, half- or full-width.
  private func startsNumber(at offset: Int32) -> Bool {
    let index = Int(offset)
    guard index < source.count else { return false }
    let value = source[index].value
    return isASCIIDigit(value) || (0xFF10...0xFF19).contains(value)
  }

  /// The word "plus", standing alone, for the sign at `start`.
  private mutating func plus(at start: Int32) {
    space(start)
    for letter in "plus".unicodeScalars { append(value: letter.value, start, start + 1) }
    space(start)
  }

  @inline(__always)
  private mutating func space(_ start: Int32) {
    if let joiner = pendingJoiner {
      pendingJoiner = nil
      if pendingSpace == nil { pendingSpace = joiner.start }
    }
    if pendingSpace == nil { pendingSpace = start }
  }

  @inline(__always)
  private mutating func append(value: UInt32, _ start: Int32, _ end: Int32) {
    guard let scalar = Unicode.Scalar(value) else { return }
    if let joiner = pendingJoiner {
      pendingJoiner = nil
      let keep: Bool
      switch joiner.scalar {
      case "'": keep = isASCIILetter(value)
      case ".": keep = isASCIIAlphanumeric(value)
      default: keep = isASCIIDigit(value)
      }
      if keep {
        output.append(joiner.scalar, joiner.start, joiner.end)
      } else if pendingSpace == nil {
        pendingSpace = joiner.start
      }
    }
    if let spaceStart = pendingSpace {
      pendingSpace = nil
      if output.count > 0 { output.append(" ", spaceStart, spaceStart + 1) }
    }
    output.append(scalar, start, end)
    lastAppendedSourceEnd = end
  }
}

@inline(__always)
func isASCIIDigit(_ value: UInt32) -> Bool { value &- 0x30 < 10 }

@inline(__always)
func isASCIILetter(_ value: UInt32) -> Bool { (value | 0x20) &- 0x61 < 26 }

@inline(__always)
func isASCIIAlphanumeric(_ value: UInt32) -> Bool { isASCIIDigit(value) || isASCIILetter(value) }

@inline(__always)
func isCJKIdeograph(_ value: UInt32) -> Bool {
  (value >= 0x4E00 && value < 0xA000) || (value >= 0x3400 && value < 0x4DC0)
}
