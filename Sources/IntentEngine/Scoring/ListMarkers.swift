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

  /// Whether a list may be named: a word for one was said.
  var mayNameList: Bool { shopping != nil || todo != nil || !listWords.isEmpty }

  /// Longest name read before the word "list": a few Chinese characters or one Latin word.
  static let longestChineseName = 6

  /// Prepositions, which a list's name never holds: "把护照从旅行清单去掉" names 旅行.
  static let prepositions = Set("从把在到往给".unicodeScalars)

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
          isCJKIdeograph(scalars[start - 1].value), !Self.prepositions.contains(scalars[start - 1]),
          !analysis.isReadWord(at: start - 1, hitsEndingBy: word.lowerBound)
        {
          start -= 1
        }
      }
      guard start < end, !analysis.isReadWord(at: start, hitsEndingBy: word.lowerBound) else {
        continue
      }
      let name = analysis.text.originalText(of: start..<end)
      return (start..<word.upperBound, name)
    }
    return nil
  }
}
