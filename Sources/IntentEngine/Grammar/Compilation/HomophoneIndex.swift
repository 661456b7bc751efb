/// Finds Chinese keywords typed as homophones ("剃醒我" for "提醒我", "机时器" for "计时器") and
/// respells them, so that everything after normalisation reads the keyword the user meant.
///
/// Keywords of two to four ideographs are indexed by their toneless syllables when grammars load.
/// A run of the same length that reads the same is respelt unless the characters mean something
/// else: the run is a word the grammars know or a common word ("及时" is no slip for "计时", nor
/// "水面" for "睡眠"), or it cuts a common word in two ("去钓鱼" holds no "去掉"). When keywords of
/// different intents read alike, neither is guessed.
struct HomophoneIndex: Sendable {
  static let lengths = 2...4

  private let readings: MandarinReadings
  /// Packed syllables → the keyword that reads so (entry -1 when keywords of different intents
  /// share them).
  private var keys = PackedKeyTable<Target>()
  /// The same while indexing, with the intents each indexed entry counts for.
  private var index: [UInt64: (target: Target, intents: [Int32])] = [:]

  /// A keyword's lexicon entry and its characters, packed by ``MandarinWords/pack(_:)``.
  struct Target: Sendable {
    var entry: Int32
    var spelling: UInt64

    /// Keywords of different intents read so: no guess.
    static let ambiguous = Target(entry: -1, spelling: 0)
  }
  /// Per syllable number, whether an indexed keyword opens with it: most characters open none.
  private var opens: [Bool]
  /// What counts as a word of its own.
  private let words: MandarinWords

  init(readings: MandarinReadings = .builtin, words: MandarinWords = .builtin) {
    self.readings = readings
    self.words = words
    opens = [Bool](repeating: false, count: readings.syllableCount + 1)
  }

  /// Indexes a keyword counting for `intents` (sorted), if it is two to four ideographs that all
  /// have a reading.
  mutating func add(_ word: [Unicode.Scalar], entry: Int32, intents: [Int32]) {
    guard Self.lengths.contains(word.count), let key = key(word[...]),
      let spelling = MandarinWords.pack(word)
    else { return }
    let target = Target(entry: entry, spelling: spelling)
    guard let known = index[key] else {
      index[key] = (target, intents)
      opens[Int(readings.syllable(of: word[0]))] = true
      return
    }
    // Of two keywords that read alike, the one meaning more holds the other's meanings ("计时器"
    // and a listed slip "及时器"); two that mean different things are no guess.
    guard known.target.entry >= 0 else { return }
    if Set(intents).isSuperset(of: known.intents), intents != known.intents {
      index[key] = (target, intents)
    } else if !Set(known.intents).isSuperset(of: intents) {
      index[key] = (.ambiguous, [])
    }
  }

  /// Moves the indexed keywords into the probe table; call once, after the last
  /// ``add(_:entry:intents:)``.
  mutating func seal() {
    keys = PackedKeyTable(index.mapValues(\.target), filler: .ambiguous)
    index = [:]
  }

  /// `text` with each homophone of a keyword respelt as the keyword and recorded in
  /// ``NormalizedText/respelt``; nil when there is none.
  ///
  /// A homophone is read only where the words the lexicon finds begin and end, and only characters
  /// the lexicon reads alone are replaced: "明天上海" holds no "添上", and "天汽", were a grammar to
  /// list it, would be its own keyword. A slip keeps a character of the keyword that is no
  /// particle: "水的" shares none with "睡得", "醒了" only 了 with "行了".
  func respelling(_ text: NormalizedText, lexicon: Lexicon) -> NormalizedText? {
    guard !keys.isEmpty else { return nil }
    let scalars = text.scalars
    var respelt: [Unicode.Scalar]?
    var ranges: [Range<Int>] = []
    var segmentation: Segmentation?
    var i = 0
    while i + 1 < scalars.count {
      let first = readings.syllable(of: scalars[i])
      guard first != 0, opens[Int(first)] else {
        i += 1
        continue
      }
      // The syllables of up to four characters, read once; a shorter run's key is a prefix.
      var longestKey = UInt64(first)
      var longest = 1
      while longest < Self.lengths.upperBound, i + longest < scalars.count {
        let syllable = readings.syllable(of: scalars[i + longest])
        guard syllable != 0 else { break }
        longestKey = longestKey << 16 | UInt64(syllable)
        longest += 1
      }
      var next = i + 1
      for length in stride(from: longest, through: Self.lengths.lowerBound, by: -1) {
        guard let target = keys[longestKey >> UInt64(16 * (longest - length))] else { continue }
        let window = scalars[i..<(i + length)]
        let changed = target.entry >= 0 ? Self.changedOffsets(window, target.spelling) : []
        // A keyword spelt right holds its characters.
        if target.entry >= 0, changed.isEmpty {
          next = i + length
          break
        }
        let segmented = segmentation ?? Segmentation(scalars, lexicon: lexicon)
        segmentation = segmented
        guard segmented.isWordRun(i..<(i + length)) else { continue }
        // So does a known word or a common one.
        next = i + length
        guard target.entry >= 0, lexicon.entry(for: window) == nil,
          window.indices.contains(where: { !changed.contains($0) && !Self.isParticle(scalars[$0]) }
          ),
          changed.allSatisfy(segmented.isFreeCharacter(at:)),
          !meansOtherwise(i..<next, in: scalars, segmented)
        else { break }
        if respelt == nil { respelt = scalars }
        respelt?.replaceSubrange(i..<next, with: lexicon.word(target.entry).unicodeScalars)
        ranges.append(i..<next)
        break
      }
      i = next
    }
    return respelt.map { text.respelt(as: $0, at: ranges) }
  }

  /// Whether `scalar` is a particle that follows many words (了, 的, 吗): kept alone, it says
  /// nothing about which word was meant.
  private static func isParticle(_ scalar: Unicode.Scalar) -> Bool {
    "了的吗呢吧啊呀嘛么".unicodeScalars.contains(scalar)
  }

  /// The offsets in `window` where its characters differ from a keyword's packed `spelling`.
  private static func changedOffsets(_ window: ArraySlice<Unicode.Scalar>, _ spelling: UInt64)
    -> [Int]
  {
    var changed: [Int] = []
    var shift = UInt64(16 * (window.count - 1))
    for offset in window.indices {
      if UInt64(window[offset].value) != (spelling >> shift) & 0xFFFF { changed.append(offset) }
      shift &-= 16
    }
    return changed
  }

  /// The syllables of `word` packed sixteen bits each, or nil when one has no reading.
  private func key(_ word: ArraySlice<Unicode.Scalar>) -> UInt64? {
    var key: UInt64 = 0
    for scalar in word {
      let syllable = readings.syllable(of: scalar)
      guard syllable != 0 else { return nil }
      key = key << 16 | UInt64(syllable)
    }
    return key
  }

  /// Whether the characters of `range` are a common word, lie inside one, or a common word
  /// runs across one of its ends — one that fits the words the lexicon found: "天天" in
  /// "明天天汽" cuts "明天" and says nothing.
  private func meansOtherwise(
    _ range: Range<Int>, in scalars: [Unicode.Scalar], _ segmentation: Segmentation
  ) -> Bool {
    if words.contains(scalars[range]) { return true }
    let lower = max(0, range.lowerBound - 3)
    for start in lower..<range.upperBound where start + 2 <= scalars.count {
      for end in (start + 2)...min(start + 4, scalars.count)
      where end > range.lowerBound && (start < range.lowerBound || end > range.upperBound) {
        if segmentation.isWordRun(start..<end), words.contains(scalars[start..<end]) {
          return true
        }
      }
    }
    return false
  }
}

/// Where the lexicon's words begin and end in a text, and which characters are free: read alone,
/// as no word or a word of one character.
private struct Segmentation {
  private var starts: [Bool]
  private var ends: [Bool]
  private var free: [Bool]

  init(_ scalars: [Unicode.Scalar], lexicon: Lexicon) {
    starts = [Bool](repeating: false, count: scalars.count + 1)
    ends = starts
    free = starts
    for token in Tokenizer(lexicon: lexicon).tokens(in: scalars) {
      starts[token.range.lowerBound] = true
      ends[token.range.upperBound] = true
      if token.range.count == 1 { free[token.range.lowerBound] = true }
    }
  }

  /// Whether `range` begins where a word begins and ends where one ends.
  func isWordRun(_ range: Range<Int>) -> Bool {
    starts[range.lowerBound] && ends[range.upperBound]
  }

  /// Whether the character at `offset` is free.
  func isFreeCharacter(at offset: Int) -> Bool { free[offset] }
}
