/// Finds the keyword a misspelt Latin word was meant to be ("timmer" → "timer", "umbrela" →
/// "umbrella"), one edit away.
///
/// Keywords and their one-letter deletions are indexed when grammars load, each packed into one
/// integer (five bits a letter), so a lookup is a handful of hash probes and no allocation.
struct TypoIndex: Sendable {
  /// Shortest keyword that is matched with any typo: shorter words have too many neighbours.
  static let minimumKeywordLength = 5
  /// Shortest keyword that is matched with two neighbouring letters swapped ("noet", "lsit"): few
  /// words of four letters are a swap of another, while a changed letter often makes a word.
  static let minimumSwappedLength = 4
  /// Shortest word that is looked up.
  static let minimumWordLength = 4
  /// Longest word that fits the packed key.
  static let maximumLength = 12

  /// Key → entries while indexing; ``seal()`` moves them into the probe table.
  private var index: [UInt64: [Int32]] = [:]
  /// Per lexicon entry, its letters (empty when the entry is not indexed).
  private var words: [[UInt8]] = []
  /// Key → the range of its entries in `entries`.
  private var ranges = PackedKeyTable<Range<Int32>>()
  private var entries: [Int32] = []
  /// Real words one edit from a keyword ("time", "books"), packed: weaker evidence than a slip.
  private var realWords: Set<UInt64> = []

  /// Makes room for `keys` keys and for lexicon entries up to `entries`, before indexing.
  mutating func reserveCapacity(keys: Int, entries: Int) {
    index.reserveCapacity(keys)
    words.reserveCapacity(entries)
  }

  /// Indexes a keyword if it is a single ASCII word long enough to be matched fuzzily.
  mutating func add(_ word: String, entry: Int32) {
    guard let letters = Self.letters(utf8: word.utf8),
      letters.count >= Self.minimumSwappedLength
    else { return }
    while words.count <= Int(entry) { words.append([]) }
    words[Int(entry)] = letters
    for skip in -1..<letters.count {
      Self.appendIfAbsent(entry, to: &index[Self.key(letters, skipping: skip), default: []])
    }
  }

  /// Records a real word one edit from a keyword: read as that keyword, it says less than a
  /// slip that is no word ("time" may mean "timer"; "timmer" can mean nothing else).
  mutating func addRealWord(_ word: [Unicode.Scalar]) {
    guard let letters = Self.letters(word) else { return }
    realWords.insert(Self.key(letters, skipping: -1))
  }

  /// Whether `word` is a real word recorded by ``addRealWord(_:)``.
  func isRealWord(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
    guard !realWords.isEmpty, let letters = Self.letters(word) else { return false }
    return realWords.contains(Self.key(letters, skipping: -1))
  }

  /// Moves the indexed keys into the probe table; call once, after the last ``add(_:entry:)``.
  mutating func seal() {
    entries.removeAll(keepingCapacity: true)
    var map: [UInt64: Range<Int32>] = [:]
    map.reserveCapacity(index.count)
    for (key, list) in index {
      let start = Int32(entries.count)
      entries += list
      map[key] = start..<Int32(entries.count)
    }
    ranges = PackedKeyTable(map, filler: 0..<0)
    index = [:]
  }

  /// The entries indexed under `key`.
  private func entries(for key: UInt64) -> ArraySlice<Int32> {
    guard let range = ranges[key] else { return [] }
    return entries[Int(range.lowerBound)..<Int(range.upperBound)]
  }

  /// Appends `entry` to one key's entries unless it is there already, in a single table access.
  private static func appendIfAbsent(_ entry: Int32, to entries: inout [Int32]) {
    if !entries.contains(entry) { entries.append(entry) }
  }

  /// The keyword entry one edit (insertion, deletion, substitution or swap) from `word`, if any.
  func correction(for word: ArraySlice<Unicode.Scalar>) -> Int32? {
    guard word.count >= Self.minimumWordLength, !ranges.isEmpty,
      let letters = Self.letters(word)
    else { return nil }
    var best: Int32?
    for skip in -1..<letters.count {
      for entry in entries(for: Self.key(letters, skipping: skip)) where entry < (best ?? .max) {
        let target = words[Int(entry)]
        let isNear =
          target.count >= Self.minimumKeywordLength
          ? Self.isOneEditApart(letters, target) : Self.isSwap(letters, target)
        if isNear, !Self.isPastTense(letters, of: target) {
          best = entry
        }
      }
    }
    return best
  }

  /// Whether `typed` is a past tense one edit from `keyword` ("timed" and "timer", "noted" and
  /// "notes"): a real word telling what happened, not a slip for the command word.
  private static func isPastTense(_ typed: [UInt8], of keyword: [UInt8]) -> Bool {
    let e: UInt8 = 5
    let d: UInt8 = 4
    guard typed.count >= 3, typed[typed.count - 2] == e, typed[typed.count - 1] == d else {
      return false
    }
    return keyword.count < 2 || keyword[keyword.count - 2] != e || keyword[keyword.count - 1] != d
  }

  /// Lower-case letters 1...26, or nil when the word is not all ASCII letters or too long.
  private static func letters(_ scalars: some Collection<Unicode.Scalar>) -> [UInt8]? {
    guard scalars.count <= maximumLength else { return nil }
    var letters: [UInt8] = []
    letters.reserveCapacity(scalars.count)
    for scalar in scalars {
      let v = scalar.value | 0x20
      guard (0x61...0x7A).contains(v) else { return nil }
      letters.append(UInt8(v - 0x60))
    }
    return letters
  }

  /// The letters of ``letters(_:)`` read from UTF-8: a word of ASCII letters has one byte a
  /// scalar, and any other byte is not a letter.
  private static func letters(utf8: String.UTF8View) -> [UInt8]? {
    guard utf8.count <= maximumLength else { return nil }
    var letters: [UInt8] = []
    letters.reserveCapacity(utf8.count)
    for byte in utf8 {
      let v = byte | 0x20
      guard (0x61...0x7A).contains(v) else { return nil }
      letters.append(v - 0x60)
    }
    return letters
  }

  /// The word packed five bits a letter, leaving out the letter at `skipping` (or none for -1).
  private static func key(_ letters: [UInt8], skipping: Int) -> UInt64 {
    var key: UInt64 = 0
    for (i, letter) in letters.enumerated() where i != skipping {
      key = key << 5 | UInt64(letter)
    }
    return key
  }

  /// Whether two words of the same length differ only by two neighbouring letters swapped.
  static func isSwap(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count, a != b else { return false }
    guard let first = a.indices.first(where: { a[$0] != b[$0] }), first + 1 < a.count else {
      return false
    }
    return a[first] == b[first + 1] && a[first + 1] == b[first]
      && a[(first + 2)...] == b[(first + 2)...]
  }

  /// Whether two words differ by one insertion, deletion, substitution or adjacent swap.
  static func isOneEditApart<C: RandomAccessCollection>(_ a: C, _ b: C) -> Bool
  where C.Element: Equatable, C.Index == Int {
    let ac = a.count
    let bc = b.count
    let a0 = a.startIndex
    let b0 = b.startIndex
    if ac == bc {
      var first = -1
      var count = 0
      for i in 0..<ac where a[a0 + i] != b[b0 + i] {
        count += 1
        if first < 0 { first = i }
        if count > 2 { return false }
      }
      if count == 1 { return true }
      return count == 2 && first + 1 < ac && a[a0 + first] == b[b0 + first + 1]
        && a[a0 + first + 1] == b[b0 + first] && a[a0 + first + 1] != b[b0 + first + 1]
    }
    guard abs(ac - bc) == 1 else { return false }
    let (long, longStart, short, shortStart) = ac > bc ? (a, a0, b, b0) : (b, b0, a, a0)
    let shortCount = min(ac, bc)
    var i = 0
    while i < shortCount, long[longStart + i] == short[shortStart + i] { i += 1 }
    var j = i
    while j < shortCount {
      guard long[longStart + j + 1] == short[shortStart + j] else { return false }
      j += 1
    }
    return true
  }
}
