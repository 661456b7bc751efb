/// Every word the grammars and gazetteers know, compiled into one trie of normalised forms.
///
/// The same trie segments CJK runs (longest match) and finds keyword occurrences, so a word
/// added to any grammar immediately changes how text is split.
public struct Lexicon: Sendable {
  /// Normalised word → entry index.
  private(set) var trie = ScalarTrie<Int32>()
  /// Entry index → the normalised word.
  private(set) var words: [String] = []

  /// Creates an empty lexicon.
  public init() {}

  /// The number of words.
  public var count: Int { words.count }

  /// Adds a normalised word and returns its entry index; adding a word twice returns the same index.
  @discardableResult
  public mutating func add(_ word: [Unicode.Scalar]) -> Int32 {
    let index = Int32(words.count)
    if let existing = trie.insertIfAbsent(word, value: index) { return existing }
    words.append(String(scalars: word))
    return index
  }

  /// Adds a second entry for the word of `entry`, which the trie does not find, and returns it.
  ///
  /// Such an entry gives a word the meaning one grammar folder alone gives it (see
  /// ``FolderLexicon``), while segmentation and lookups keep finding the first entry.
  mutating func addAlias(of entry: Int32) -> Int32 {
    words.append(words[Int(entry)])
    return Int32(words.count - 1)
  }

  /// The entry for exactly `word`, if known.
  public func entry(for word: some Collection<Unicode.Scalar>) -> Int32? {
    trie.value(for: word)
  }

  /// The word of an entry.
  public func word(_ entry: Int32) -> String { words[Int(entry)] }

  /// The longest word starting at `start`.
  func longestMatch(in scalars: [Unicode.Scalar], from start: Int) -> (end: Int, value: Int32)? {
    trie.longestMatch(in: scalars, from: start)
  }

  /// Calls `body` with every word starting at `start`, shortest first, as its end and entry.
  @inline(__always)
  func forEachMatch(
    in scalars: [Unicode.Scalar], from start: Int, _ body: (_ end: Int, _ entry: Int32) -> Void
  ) {
    trie.forEachMatch(in: scalars, from: start, body)
  }
}
