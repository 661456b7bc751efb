/// Splits normalised text into tokens: Latin words, numbers, lexicon words and single characters.
///
/// Latin words and numbers split on script boundaries ("5min" → 5, min; "8:10" → 8, :, 10). CJK
/// runs are segmented by longest match against the lexicon, falling back to single characters.
public struct Tokenizer: Sendable {
  /// The words used for segmentation.
  public let lexicon: Lexicon

  /// Creates a tokenizer over a compiled lexicon.
  public init(lexicon: Lexicon) {
    self.lexicon = lexicon
  }

  /// The tokens of `text`, in order.
  ///
  /// - Complexity: O(n · w) for n scalars and the longest lexicon word w.
  public func tokens(in text: NormalizedText) -> [Token] {
    tokens(in: text.scalars)
  }

  /// The tokens of normalised scalars, in order.
  public func tokens(in scalars: [Unicode.Scalar]) -> [Token] {
    var tokens: [Token] = []
    tokens.reserveCapacity(scalars.count / 2 + 1)
    var i = 0
    let n = scalars.count
    while i < n {
      let value = scalars[i].value
      if value == 0x20 {
        i += 1
        continue
      }
      let isLetter = Self.isASCIILetter(value)
      let isDigit = Self.isASCIIDigit(value)
      // ASCII runs end at the first non-letter (or non-digit) scalar.
      var runEnd = i + 1
      if isLetter {
        while runEnd < n, Self.isASCIILetter(scalars[runEnd].value) { runEnd += 1 }
      } else if isDigit {
        while runEnd < n {
          let next = scalars[runEnd].value
          if Self.isASCIIDigit(next) {
            runEnd += 1
          } else if next == 0x2E, runEnd + 1 < n, Self.isASCIIDigit(scalars[runEnd + 1].value) {
            runEnd += 2
          } else {
            break
          }
        }
      }
      if let match = lexicon.longestMatch(in: scalars, from: i),
        !(isLetter || isDigit) || match.end >= runEnd,
        !isLetter || match.end == n || !Self.isASCIILetter(scalars[match.end].value)
      {
        tokens.append(Token(range: i..<match.end, kind: .lexicon, entry: match.value))
        i = match.end
        continue
      }
      if isLetter || isDigit {
        let entry = lexicon.entry(for: scalars[i..<runEnd]) ?? -1
        tokens.append(Token(range: i..<runEnd, kind: isLetter ? .latin : .number, entry: entry))
        i = runEnd
        continue
      }
      let kind: Token.Kind = Self.isWordScalar(value) ? .character : .symbol
      tokens.append(Token(range: i..<(i + 1), kind: kind))
      i += 1
    }
    return tokens
  }

  @inline(__always)
  static func isASCIILetter(_ v: UInt32) -> Bool { (v &- 0x61) < 26 || (v &- 0x41) < 26 }

  @inline(__always)
  static func isASCIIDigit(_ v: UInt32) -> Bool { (v &- 0x30) < 10 }

  /// Whether a scalar belongs to a word rather than punctuation: letters, digits, ideographs.
  @inline(__always)
  static func isWordScalar(_ v: UInt32) -> Bool {
    if v < 0x80 { return isASCIILetter(v) || isASCIIDigit(v) }
    if (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) { return true }
    if (0x3000...0x303F).contains(v) || (0xFF00...0xFF0F).contains(v) { return false }
    guard let scalar = Unicode.Scalar(v) else { return false }
    return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
  }
}
