/// An utterance after normalisation, with a map back to the words it came from.
///
/// Normalised text is what tokens, grammar keywords and entity extractors see: NFKC, half-width,
/// case-folded, simplified Chinese, numerals as ASCII digits. Every normalised scalar knows the
/// range of original scalars it was produced from, so a slot can quote the user's own words.
public struct NormalizedText: Sendable {
  /// The parts, held once: a parse hands the text to every reader, and a value of seven arrays
  /// would retain and release each of them at every copy.
  private final class Storage: Sendable {
    let original: String
    let originalScalars: [Unicode.Scalar]
    let scalars: [Unicode.Scalar]
    let sourceStarts: [Int32]
    let sourceEnds: [Int32]
    let numbers: [NumberSpan]
    let respelt: [Range<Int>]

    init(
      original: String, originalScalars: [Unicode.Scalar], scalars: [Unicode.Scalar],
      sourceStarts: [Int32], sourceEnds: [Int32], numbers: [NumberSpan], respelt: [Range<Int>]
    ) {
      self.original = original
      self.originalScalars = originalScalars
      self.scalars = scalars
      self.sourceStarts = sourceStarts
      self.sourceEnds = sourceEnds
      self.numbers = numbers
      self.respelt = respelt
    }
  }

  private let storage: Storage

  /// The text as the user typed it.
  public var original: String { storage.original }
  /// The original text's scalars, so that quoting the user's words costs no walk of the string.
  public var originalScalars: [Unicode.Scalar] { storage.originalScalars }
  /// The normalised scalars.
  public var scalars: [Unicode.Scalar] { storage.scalars }
  /// For each normalised scalar, the offset (in Unicode scalars) of the first original scalar it
  /// came from.
  public var sourceStarts: [Int32] { storage.sourceStarts }
  /// For each normalised scalar, the offset one past the last original scalar it came from.
  public var sourceEnds: [Int32] { storage.sourceEnds }
  /// The numbers read from the text, in order of position, with their normalised ranges.
  public var numbers: [NumberSpan] { storage.numbers }
  /// The offset of the first clause break (see ``isClauseBreak(at:)``), or nil when the text is
  /// one clause, as most commands are: readers of clauses stop here at once.
  public private(set) var firstClauseBreak: Int?
  /// Ranges the engine respelt as the keyword they sound like ("剃醒" as "提醒"): read as that
  /// keyword, they are weaker evidence than the keyword typed.
  public var respelt: [Range<Int>] { storage.respelt }

  /// Creates normalised text from its parts; the three arrays must have equal length.
  public init(
    original: String, scalars: [Unicode.Scalar], sourceStarts: [Int32], sourceEnds: [Int32],
    numbers: [NumberSpan]
  ) {
    self.init(
      original: original, originalScalars: original.scalarArray, scalars: scalars,
      sourceStarts: sourceStarts, sourceEnds: sourceEnds, numbers: numbers)
  }

  /// Creates normalised text from its parts when the original's scalars are already at hand.
  init(
    original: String, originalScalars: [Unicode.Scalar], scalars: [Unicode.Scalar],
    sourceStarts: [Int32], sourceEnds: [Int32], numbers: [NumberSpan],
    respelt: [Range<Int>] = []
  ) {
    precondition(scalars.count == sourceStarts.count && scalars.count == sourceEnds.count)
    storage = Storage(
      original: original, originalScalars: originalScalars, scalars: scalars,
      sourceStarts: sourceStarts, sourceEnds: sourceEnds, numbers: numbers, respelt: respelt)
    for index in scalars.indices where scalars[index] == " " && isClauseBreak(at: index) {
      firstClauseBreak = index
      break
    }
  }

  /// The same text with `scalars` in place of the normalised ones, same length, and `ranges`
  /// recorded as respelt.
  func respelt(as scalars: [Unicode.Scalar], at ranges: [Range<Int>]) -> NormalizedText {
    NormalizedText(
      original: original, originalScalars: originalScalars, scalars: scalars,
      sourceStarts: sourceStarts, sourceEnds: sourceEnds, numbers: numbers, respelt: ranges)
  }

  /// The normalised text as a string.
  public var string: String { String(scalars: scalars) }

  /// The normalised scalars in `range` as a string.
  public func string(in range: Range<Int>) -> String { String(scalars: scalars[range]) }

  /// The range of original scalar offsets that the normalised `range` was produced from.
  public func originalRange(of range: Range<Int>) -> Range<Int> {
    guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= scalars.count else {
      let offset = range.lowerBound < sourceStarts.count ? Int(sourceStarts[range.lowerBound]) : 0
      return offset..<offset
    }
    return Int(sourceStarts[range.lowerBound])..<Int(sourceEnds[range.upperBound - 1])
  }

  /// Whether the normalised scalar at `offset` separates clauses.
  ///
  /// A space that stands for punctuation ("we're out, add milk") does, and so does one beside
  /// Chinese text ("鸡蛋好了 取消倒计时"), where words are not spaced; a space between two Latin
  /// words is only a word break.
  public func isClauseBreak(at offset: Int) -> Bool {
    guard let source = sourceOfSpace(at: offset) else { return false }
    var allWhitespace = true
    for index in source {
      let scalar = originalScalars[index]
      if Self.isClausePunctuation(scalar) { return true }
      if allWhitespace, !Self.isWhitespace(scalar) { allWhitespace = false }
    }
    guard allWhitespace else { return false }
    let before = offset > 0 ? scalars[offset - 1].value : 0
    let after = offset + 1 < scalars.count ? scalars[offset + 1].value : 0
    return before >= 0x3400 || after >= 0x3400
  }

  /// Whether the normalised scalar at `offset` stands for punctuation that ends a clause ("，",
  /// ".", "?"), not only for a space.
  public func isPunctuatedBreak(at offset: Int) -> Bool {
    guard let source = sourceOfSpace(at: offset) else { return false }
    return source.contains { Self.isClausePunctuation(originalScalars[$0]) }
  }

  /// The offsets of the original scalars the normalised space at `offset` stands for, or nil when
  /// `offset` holds no space.
  @inline(__always)
  private func sourceOfSpace(at offset: Int) -> Range<Int>? {
    guard offset >= 0, offset < scalars.count, scalars[offset] == " " else { return nil }
    return originalBounds(of: offset..<offset + 1)
  }

  /// ``originalRange(of:)`` clamped to the original scalars.
  @inline(__always)
  private func originalBounds(of range: Range<Int>) -> Range<Int> {
    let source = originalRange(of: range)
    let lower = min(max(source.lowerBound, 0), originalScalars.count)
    let upper = min(max(source.upperBound, lower), originalScalars.count)
    return lower..<upper
  }

  /// Punctuation that ends a clause (",.;:!?，。；：！？、…~～—"); quotes and brackets ("《晴天》") do
  /// not.
  @inline(__always)
  static func isClausePunctuation(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x21, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x7E: true  // ! , . : ; ? ~
    case 0x2014, 0x2026, 0x3001, 0x3002: true  // — … 、 。
    case 0xFF01, 0xFF0C, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF5E: true  // ！ ， ： ； ？ ～
    default: false
    }
  }

  @inline(__always)
  private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x80
      ? (scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value))
      : scalar.properties.isWhitespace
  }

  /// The user's own words behind the normalised `range`.
  public func originalText(of range: Range<Int>) -> String {
    String(scalars: originalScalars[originalBounds(of: range)])
  }

  /// The user's words for `range` with the marks that close them, which normalising dropped: a
  /// bracket or quote opened inside ("《人类简史》") and '#', '%' or '+' written against the last
  /// word ("门禁密码是1397#").
  public func originalPhrase(of range: Range<Int>) -> String {
    let bounds = originalBounds(of: range)
    let lower = bounds.lowerBound
    var upper = bounds.upperBound
    while upper < originalScalars.count {
      let mark = originalScalars[upper]
      if let opener = Self.openers[mark] {
        guard originalScalars[lower..<upper].contains(opener) else { break }
      } else if !"#%+".unicodeScalars.contains(mark) {
        break
      }
      upper += 1
    }
    return String(scalars: originalScalars[lower..<upper])
  }

  /// Closing brackets and quotes, with the mark that opens each.
  private static let openers: [Unicode.Scalar: Unicode.Scalar] = [
    "》": "《", "」": "「", "』": "『", "）": "（", ")": "(", "”": "“", "’": "‘", "】": "【", "〉": "〈",
  ]

  /// Whether the text is Chinese: it holds a CJK ideograph.
  ///
  /// Prompts answer in this language.
  public var isChinese: Bool { scalars.contains { isCJKIdeograph($0.value) } }
}

/// A number read from normalised text: Arabic, full-width, Chinese or English words.
public struct NumberSpan: Sendable, Equatable {
  /// The normalised scalars that spell the number.
  public var range: Range<Int>
  /// The value; for a range ("两三", "two or three") the lower bound.
  public var value: Double
  /// The upper bound of a range, or nil for a single value.
  public var upperBound: Double?

  /// Creates a span.
  public init(range: Range<Int>, value: Double, upperBound: Double? = nil) {
    self.range = range
    self.value = value
    self.upperBound = upperBound
  }

  /// Whether the span is a range such as "两三".
  public var isRange: Bool { upperBound != nil }
  /// The value to use when one is needed: the upper bound of a range, else the value.
  public var resolvedValue: Double { upperBound ?? value }
}

extension String {
  /// The string's scalars, decoded once: `Array(unicodeScalars)` decodes twice, once to count.
  var scalarArray: [Unicode.Scalar] {
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(utf8.count)
    for scalar in unicodeScalars { scalars.append(scalar) }
    return scalars
  }

  /// A string of the given scalars, encoded in one pass.
  ///
  /// Faster than appending scalars one by one to a `String.UnicodeScalarView`, which re-checks
  /// capacity and encoding per scalar; this runs for every slot and result.
  init(scalars: some Collection<Unicode.Scalar>) {
    // Encoded straight into the string's own storage: no intermediate byte array.
    var length = 0
    for scalar in scalars { length += UTF8.width(scalar) }
    self.init(unsafeUninitializedCapacity: length) { bytes in
      var i = 0
      for scalar in scalars {
        let v = scalar.value
        switch v {
        case 0..<0x80:
          bytes[i] = UInt8(v)
          i += 1
        case 0x80..<0x800:
          bytes[i] = UInt8(0xC0 | (v >> 6))
          bytes[i + 1] = UInt8(0x80 | (v & 0x3F))
          i += 2
        case 0x800..<0x10000:
          bytes[i] = UInt8(0xE0 | (v >> 12))
          bytes[i + 1] = UInt8(0x80 | ((v >> 6) & 0x3F))
          bytes[i + 2] = UInt8(0x80 | (v & 0x3F))
          i += 3
        default:
          bytes[i] = UInt8(0xF0 | (v >> 18))
          bytes[i + 1] = UInt8(0x80 | ((v >> 12) & 0x3F))
          bytes[i + 2] = UInt8(0x80 | ((v >> 6) & 0x3F))
          bytes[i + 3] = UInt8(0x80 | (v & 0x3F))
          i += 4
        }
      }
      return i
    }
  }
}
