/// Finds the keyword a misspelt Latin word was meant to be ("timmer" → "timer", "umbrela" →
/// "umbrella"), one edit away.
///
/// Keywords and their one-letter deletions are indexed when grammars load, so a lookup is a
/// handful of hash probes rather than a scan of the lexicon.
struct TypoIndex: Sendable {
  /// Shortest keyword that is matched with a typo: shorter words have too many neighbours.
  static let minimumKeywordLength = 5
  /// Shortest word that is looked up.
  static let minimumWordLength = 4

  private var index: [String: [Int32]] = [:]
  private var words: [Int32: [Unicode.Scalar]] = [:]

  /// Indexes a keyword if it is a single ASCII word long enough to be matched fuzzily.
  mutating func add(_ word: String, entry: Int32) {
    let scalars = Array(word.unicodeScalars)
    guard scalars.count >= Self.minimumKeywordLength,
      scalars.allSatisfy({ Tokenizer.isASCIILetter($0.value) })
    else { return }
    words[entry] = scalars
    for variant in [scalars] + Self.deletions(of: scalars) {
      let key = String(String.UnicodeScalarView(variant))
      if index[key]?.contains(entry) != true { index[key, default: []].append(entry) }
    }
  }

  /// The keyword entry one edit (insertion, deletion, substitution or swap) from `word`, if any.
  func correction(for word: ArraySlice<Unicode.Scalar>) -> Int32? {
    guard word.count >= Self.minimumWordLength, word.count <= 20, !index.isEmpty else { return nil }
    let scalars = Array(word)
    var best: Int32?
    for variant in [scalars] + Self.deletions(of: scalars) {
      for entry in index[String(String.UnicodeScalarView(variant))] ?? []
      where entry < (best ?? .max) {
        if let target = words[entry], Self.isOneEditApart(scalars, target) { best = entry }
      }
    }
    return best
  }

  private static func deletions(of word: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
    (0..<word.count).map { i in Array(word[..<i] + word[(i + 1)...]) }
  }

  /// Whether two words differ by one insertion, deletion, substitution or adjacent swap.
  static func isOneEditApart(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
    if a == b { return false }
    if a.count == b.count {
      let differences = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
      if differences.count == 1 { return true }
      if differences.count == 2, differences[1] == differences[0] + 1 {
        let i = differences[0]
        return a[i] == b[i + 1] && a[i + 1] == b[i]
      }
      return false
    }
    guard abs(a.count - b.count) == 1 else { return false }
    let (long, short) = a.count > b.count ? (a, b) : (b, a)
    var i = 0
    while i < short.count, long[i] == short[i] { i += 1 }
    return long[(i + 1)...].elementsEqual(short[i...])
  }
}
