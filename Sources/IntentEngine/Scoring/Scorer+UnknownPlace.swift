extension Scorer {
  /// Words after which English names a place ("weather in costa mesa").
  static let placePrepositions: [[Unicode.Scalar]] = ["in", "at", "for", "around", "near"].map {
    Array($0.unicodeScalars)
  }
  /// Most Latin words an unknown place name takes.
  static let longestLatinPlace = 3
  /// Fewest and most Chinese characters an unknown place name takes (大丰, 海珠区, 乌鲁木齐市).
  static let chinesePlaceLength = 2...5

  /// A place the gazetteer does not know, read where sentences name places: the words after a
  /// place preposition at the end ("weather in costa mesa", "for tallahassee tomorrow"), or the
  /// words that open the sentence right before a word that follows place names (the engine-read
  /// `place_followers…` lists: 天气, weather), a day between allowed ("桂平市天气", "彭泽后天天气",
  /// "costa mesa weather"; not "play November Rain").
  ///
  /// Only words that no keyword, function word, filler or entity explains qualify, so a place is
  /// never read from a sentence's own words. The value is the user's words, for the skill to look up.
  func unknownPlace(in analysis: Analysis) -> Range<Int>? {
    let scalars = analysis.text.scalars
    func isPlain(_ offset: Int) -> Bool { analysis.isReadWord(at: offset, entities: true) }
    func isPreposition(_ token: Token) -> Bool {
      Self.placePrepositions.contains { scalars[token.range].elementsEqual($0) }
    }
    // English: a preposition, then one to three plain-free Latin words up to the end, politeness
    // aside, or a day. Most utterances have no preposition: the words are gathered only then.
    if analysis.tokens.contains(where: isPreposition) {
      let words = analysis.tokens.filter {
        $0.kind != .symbol && scalars[$0.range.lowerBound] != " "
      }
      func isLatin(_ token: Token) -> Bool { scalars[token.range].allSatisfy(Self.isASCIIWord) }
      for (index, token) in words.enumerated().reversed() where isPreposition(token) {
        var end = index + 1
        while end < words.count, end - index <= Self.longestLatinPlace, isLatin(words[end]),
          !isPlain(words[end].range.lowerBound)
        {
          end += 1
        }
        guard end > index + 1, end - index - 1 <= Self.longestLatinPlace else { continue }
        // Only politeness may follow the place ("in yellowknife right now"), or a day.
        let closes =
          words[end...].allSatisfy { word in
            analysis.fillers.contains { $0.contains(word.range.lowerBound) }
          }
          || analysis.entities.contains {
            $0.range.lowerBound == words[end].range.lowerBound
              && ($0.type == .datetime || $0.type == .date || $0.type == .period)
          }
        if closes { return words[index + 1].range.lowerBound..<words[end - 1].range.upperBound }
      }
    }
    // Only a word that follows place names ends the opening words below.
    guard !analysis.placeFollowers.isEmpty else { return nil }
    // Either language: the opening words (after a day said first), right before a keyword or a
    // day, with only function words between.
    let dayEnd = analysis.entities.first {
      $0.range.lowerBound == 0 && ($0.type == .datetime || $0.type == .date)
    }?.range.upperBound
    var start = dayEnd ?? 0
    while start < scalars.count, scalars[start] == " " { start += 1 }
    var end = start
    while end < scalars.count, !isPlain(end) { end += 1 }
    while end > start, scalars[end - 1] == " " { end -= 1 }
    guard end > start else { return nil }
    let run = scalars[start..<end]
    let isChinese = run.allSatisfy { isCJKIdeograph($0.value) }
    let isLatin = run.allSatisfy { Self.isASCIIWord($0) || $0 == " " }
    guard
      (isChinese && Self.chinesePlaceLength.contains(run.count))
        || (isLatin && run.split(separator: " ").count <= Self.longestLatinPlace)
    else { return nil }
    var next = end
    func skipFunctionWords() {
      while next < scalars.count,
        scalars[next] == " " || analysis.functionWords.contains(where: { $0.contains(next) })
      {
        next += 1
      }
    }
    skipFunctionWords()
    if let day = analysis.entities.first(where: {
      $0.range.lowerBound == next && ($0.type == .datetime || $0.type == .date)
    }) {
      next = day.range.upperBound
      skipFunctionWords()
    }
    return analysis.placeFollowers.contains { $0.lowerBound == next } ? start..<end : nil
  }
}
