extension Scorer {
  /// Calls `found` with every word of `lexicon` that may be read in `tokens`, as a range and an
  /// entry.
  ///
  /// A word matches from a token's start to any boundary; inside one CJK lexicon token a word of
  /// two or more scalars may also be the token's prefix or suffix ("计时" in "别计时", "备忘" in
  /// "备忘一下"), but a word never straddles two tokens ("天气" is not in "今天|气温"). Multi-word
  /// Latin tokens expose each of their words ("turn off" does not hide "off").
  /// - Complexity: O(n · w) for n scalars and the longest lexicon word w.
  @inline(__always)
  static func forEachWord<Sink: WordSink>(
    in scalars: [Unicode.Scalar], tokens: [Token], boundaries: [Bool], lexicon: Lexicon,
    into sink: inout Sink
  ) {
    for token in tokens where token.kind != .symbol {
      let lower = token.range.lowerBound
      let upper = token.range.upperBound
      lexicon.forEachMatch(in: scalars, from: lower) { end, entry in
        guard boundaries[end] || (end < upper && end - lower >= 2) else { return }
        // Latin words must end on a word boundary: "remind" is not in "reminder".
        if end < scalars.count, isASCIIWord(scalars[end - 1]), isASCIIWord(scalars[end]) {
          return
        }
        sink.found(lower..<end, entry)
      }
      guard token.kind == .lexicon, token.range.count > 1 else { continue }
      for i in (lower + 1)..<upper where scalars[i] != " " {
        let startsWord = scalars[i - 1] == " "
        if startsWord {
          lexicon.forEachMatch(in: scalars, from: i) { end, entry in
            guard boundaries[end] else { return }
            if end < scalars.count, isASCIIWord(scalars[end - 1]), isASCIIWord(scalars[end]) {
              return
            }
            sink.found(i..<end, entry)
          }
        } else if !isASCIIWord(scalars[i]), upper - i >= 2 {
          lexicon.forEachMatch(in: scalars, from: i) { end, entry in
            if end == upper { sink.found(i..<end, entry) }
          }
        }
      }
    }
  }

  /// The keywords and excludes each grammar folder's own words let it read where the words of all
  /// folders together hide them, besides the `found` hits.
  ///
  /// A built-in list holds "开灯" as one word, so a user grammar's keyword "灯" is never at a token
  /// start in "开灯"; split by the user's words alone ("开|灯"), it is. Each folder reads only its
  /// own keywords and excludes this way, so a folder's results do not move unless another folder's
  /// word hid one of its keywords.
  /// - Complexity: O(f · n · w) for f folders, n scalars and the longest word w.
  func folderHits(
    in scalars: [Unicode.Scalar], entities: [Entity], besides found: [KeywordHit]
  ) -> [KeywordHit] {
    var hits: [KeywordHit] = []
    let base = Self.wordBoundaries(in: scalars, entities: entities)
    for folder in grammar.folderLexicons {
      let tokens = Tokenizer(lexicon: folder.lexicon).tokens(in: scalars)
      var boundaries = base
      Self.markEdges(of: tokens, in: &boundaries)
      var sink = FolderWordSink(entries: folder.entries, besides: found, hits: hits)
      Self.forEachWord(
        in: scalars, tokens: tokens, boundaries: boundaries, lexicon: folder.lexicon, into: &sink)
      hits = sink.hits
    }
    return hits
  }
}

extension Scorer {
  /// For each offset 0...n, whether a word may start or end there by the text alone: the ends,
  /// spaces and entity edges; token edges are marked by ``markEdges(of:in:)``.
  static func wordBoundaries(in scalars: [Unicode.Scalar], entities: [Entity]) -> [Bool] {
    var boundaries = [Bool](filledWith: false, count: scalars.count + 1)
    boundaries[0] = true
    boundaries[scalars.count] = true
    for entity in entities where entity.range.upperBound <= scalars.count {
      boundaries[entity.range.lowerBound] = true
      boundaries[entity.range.upperBound] = true
    }
    for (i, scalar) in scalars.enumerated() where scalar == " " {
      boundaries[i] = true
      boundaries[i + 1] = true
    }
    return boundaries
  }

  /// Marks the start and end of each of `tokens` in `boundaries`.
  @inline(__always)
  static func markEdges(of tokens: [Token], in boundaries: inout [Bool]) {
    for token in tokens {
      boundaries[token.range.lowerBound] = true
      boundaries[token.range.upperBound] = true
    }
  }
}

/// Receives the words ``Scorer/forEachWord(in:tokens:boundaries:lexicon:into:)`` reads.
///
/// A value passed `inout`, not a closure: a closure capturing the reader's arrays boxes them and
/// checks every access at run time.
protocol WordSink {
  /// Takes the lexicon entry `entry` read at `range`.
  mutating func found(_ range: Range<Int>, _ entry: Int32)
}

/// A folder's own words, as grammar-wide entries, where the words of all folders did not read
/// them already.
private struct FolderWordSink: WordSink {
  let entries: [Int32]
  let besides: [KeywordHit]
  var hits: [KeywordHit]

  mutating func found(_ range: Range<Int>, _ local: Int32) {
    let entry = entries[Int(local)]
    // A word read at the same place already counts for every folder that names it.
    guard entry >= 0, !besides.contains(where: { $0.range == range }),
      !hits.contains(where: { $0.range == range && $0.entry == entry })
    else { return }
    hits.append(KeywordHit(range: range, entry: entry))
  }
}
