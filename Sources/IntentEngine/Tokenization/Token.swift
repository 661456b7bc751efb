/// A word of normalised text: a Latin word, a number, a lexicon word or a single character.
public struct Token: Sendable, Equatable {
  /// What a token is made of.
  public enum Kind: UInt8, Sendable {
    /// A run of ASCII letters.
    case latin
    /// A run of ASCII digits, possibly with a decimal point.
    case number
    /// A word found in the lexicon (keywords, vocabulary, place names).
    case lexicon
    /// A single character the lexicon does not know.
    case character
    /// Punctuation and symbols.
    case symbol
  }

  /// The normalised scalar range.
  public var range: Range<Int>
  /// What the token is made of.
  public var kind: Kind
  /// The lexicon entry for lexicon tokens and known Latin words, else -1.
  public var entry: Int32

  /// Creates a token.
  public init(range: Range<Int>, kind: Kind, entry: Int32 = -1) {
    self.range = range
    self.kind = kind
    self.entry = entry
  }
}
