/// Words that qualify a command rather than choose it: decrease, every item, which list.
///
/// They fill `scope` and `list` slots and sign durations; they are no evidence for any intent.
struct ListMarkers {
  /// Whether a word of decrease was said.
  private(set) var decreases = false
  /// The first word meaning every item.
  private(set) var scopeAll: Range<Int>?
  private var shopping: Range<Int>?
  private var todo: Range<Int>?
  private var listWords: [Range<Int>] = []

  /// Notes the marker roles of one word the lexicon found.
  mutating func record(_ range: Range<Int>, _ role: EntryRole) {
    if role.contains(.decrease) { decreases = true }
    if role.contains(.scopeAll), scopeAll == nil { scopeAll = range }
    if role.contains(.shoppingList), shopping == nil { shopping = range }
    if role.contains(.todoList), todo == nil { todo = range }
    if role.contains(.listWord) { listWords.append(range) }
  }

  /// Longest name read before the word "list": a few Chinese characters or one Latin word.
  static let longestChineseName = 6

  /// The list the utterance names: `shopping` and `todo` for their many names, else the words
  /// just before "list" ("packing list" → `packing`, "旅行清单" → `旅行`); nil when no list is
  /// named or the list is only "my list".
  func listName(in analysis: Analysis) -> (range: Range<Int>, name: String)? {
    if let shopping { return (shopping, "shopping") }
    if let todo { return (todo, "todo") }
    let scalars = analysis.text.scalars
    for word in listWords {
      var start = word.lowerBound
      if start > 0, scalars[start - 1] == " " { start -= 1 }
      let end = start
      guard end > 0 else { continue }
      if Scorer.isASCIIWord(scalars[end - 1]) {
        while start > 0, Scorer.isASCIIWord(scalars[start - 1]) { start -= 1 }
      } else {
        while start > 0, end - start < Self.longestChineseName,
          isCJKIdeograph(scalars[start - 1].value), !Self.isPlain(start - 1, before: word, analysis)
        {
          start -= 1
        }
      }
      guard start < end, !Self.isPlain(start, before: word, analysis) else { continue }
      let name = analysis.text.originalText(of: start..<end)
      return (start..<word.upperBound, name)
    }
    return nil
  }

  /// Whether the scalar at `offset` belongs to a function word, a filler or a keyword.
  ///
  /// Such words say how a list is used ("my", "把", "add"), not which list it is.
  /// A keyword that takes in the list word itself ("packing list") names the list, and is no
  /// such word.
  private static func isPlain(_ offset: Int, before word: Range<Int>, _ analysis: Analysis) -> Bool
  {
    analysis.functionWords.contains { $0.contains(offset) }
      || analysis.fillers.contains { $0.contains(offset) }
      || analysis.hits.contains {
        $0.range.contains(offset) && $0.range.upperBound <= word.lowerBound
      }
  }
}
