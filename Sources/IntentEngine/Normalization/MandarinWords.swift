import BuiltinGrammars

/// The common Chinese words of two to four characters, from `Grammars/shared/mandarin.words`.
///
/// Chinese is written without spaces, so whether characters belong together is a fact about the
/// language, not about one grammar: "钓鱼" is a word, and "去钓" in "去钓鱼" is none.
struct MandarinWords: Sendable {
  /// Each word's scalars packed sixteen bits each (``pack(_:)``), sorted.
  private let packed: [UInt64]

  /// The words embedded from `Grammars/shared`, read the first time a parse needs them.
  static let builtin: MandarinWords = {
    let file = BuiltinGrammars.files.first { $0.path == "shared/mandarin.words" }
    return MandarinWords(parsing: file?.text ?? "")
  }()

  /// Reads one word a line; '#' lines, and words that are not two to four BMP characters, are
  /// skipped.
  init(parsing text: String) {
    var packed: [UInt64] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true)
    where !line.hasPrefix("#") {
      let scalars = line.unicodeScalars
      if (2...4).contains(scalars.count), let key = Self.pack(scalars) { packed.append(key) }
    }
    packed.sort()
    self.packed = packed
  }

  /// How many words the list holds.
  var count: Int { packed.count }

  /// Whether `word` is one of the words.
  func contains(_ word: some Collection<Unicode.Scalar>) -> Bool {
    guard (2...4).contains(word.count), let key = Self.pack(word) else { return false }
    var low = 0
    var high = packed.count
    while low < high {
      let middle = (low + high) / 2
      if packed[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low < packed.count && packed[low] == key
  }

  /// Up to four BMP scalars packed sixteen bits each, or nil for others.
  static func pack(_ word: some Collection<Unicode.Scalar>) -> UInt64? {
    var key: UInt64 = 0
    for scalar in word {
      guard scalar.value < 0x10000 else { return nil }
      key = key << 16 | UInt64(scalar.value)
    }
    return key
  }
}
