/// A keyword, exclude or list word found in an utterance.
struct KeywordHit: Sendable {
  var range: Range<Int>
  var entry: Int32
  /// Whether the word was a misspelling one edit away from the keyword.
  var isCorrected = false
  /// Whether that misspelling is itself a real word ("time" read as "timer").
  var isRealWord = false
}

/// A hit together with one intent it counts for, as a keyword or an exclude.
struct TargetedHit {
  var hit: KeywordHit
  var target: KeywordTarget
}

/// Everything read from one utterance before intents are compared.
struct Analysis {
  var text: NormalizedText
  var tokens: [Token]
  var entities: [Entity]
  var hits: [KeywordHit]
  /// Ranges of filler words ("请", "一下", "please").
  var fillers: [Range<Int>]
  /// Ranges of conjunctions ("顺便", "and then").
  var conjunctions: [Range<Int>]
  /// Ranges of function words ("吗", "the"): not evidence, not unexplained content.
  var functionWords: [Range<Int>]
  /// Where the speaker corrects themselves ("no wait", "说错了"): what follows the last one
  /// replaces what came before.
  var repairs: [Range<Int>] = []
  /// The matching steps the parse has left, shared by every analysis of one parse.
  var matchBudget: MatchBudget?
  /// Where the speaker drops what they said ("never mind"): when nothing but politeness follows
  /// the last one, the utterance is no command.
  var abandons: [Range<Int>] = []
  /// The word the utterance breaks off on ("what's the weather like in uh", "加到我的"), if it
  /// ends on one: then it was never finished.
  var breaksOff: Range<Int>?
  /// Whether the utterance asks something: a question word or a question mark.
  ///
  /// Statement excludes ("下雨了") do not count then ("下雨了吗").
  var asks = false
  /// Where the user speaks of themselves ("我", "my").
  var selfMentions: [Range<Int>] = []
  /// Whether a word of decrease ("take off", "减") is said: signed durations are negative.
  var decreases = false
  /// The word that means every item ("all", "所有"), if one is said.
  var scopeAll: Range<Int>?
  /// Words that follow place names ("天气" in "桂平市天气"): an unknown place may stand before them.
  var placeFollowers: [Range<Int>] = []
  /// Words that open a new clause in run-on speech ("i", "because"), where a command said
  /// before context may end without punctuation.
  var clauseOpeners: [Range<Int>] = []
  /// The list the utterance names, normalised (`shopping`, `todo`, or the user's words).
  var listName: (range: Range<Int>, name: String)?
  /// The word naming whom the utterance is said to, when it opens the utterance as a clause of
  /// its own ("妈，你出门记得带伞", "kids, boots on, it's raining"): then it is not said to us.
  var addressee: Range<Int>?
  /// Countable scalars in the utterance: not spaces, and one per number.
  var contentLength: Int
  /// For each offset 0...n, how many countable scalars before it no filler or function word
  /// covers: what evidence may still explain.
  var openBefore: [Int32]
  /// For each offset 0...n, how many scalars before it are neither spaces nor covered by
  /// fillers and function words: free text must hold at least one.
  var contentBefore: [Int32]
  /// Countable scalars that fillers and function words cover: explained for every intent.
  var wordExplained: Int
  /// For each offset 0...n, whether a word may start or end there: token edges and spaces.
  ///
  /// Keywords and pattern words never split a token ("备忘" is not in "备忘录").
  var boundaries: [Bool]
}

extension Analysis {
  /// How many countable scalars fillers, function words and `ranges` (sorted by start) explain.
  func explainedLength(bySorted ranges: [Range<Int>]) -> Int {
    let limit = openBefore.count - 1
    var explained = wordExplained
    var start = 0
    var end = 0
    for range in ranges {
      let lower = min(max(range.lowerBound, 0), limit)
      let upper = min(max(range.upperBound, lower), limit)
      if lower > end {
        explained += Int(openBefore[end] - openBefore[start])
        start = lower
      }
      end = max(end, upper)
    }
    return explained + Int(openBefore[end] - openBefore[start])
  }
}

extension Analysis {
  /// Whether the scalar at `offset` belongs to a word the grammars already read: a function word,
  /// a filler, a keyword or exclude (one ending by `hitsEndingBy`), or, with `entities`, an entity.
  ///
  /// A list's or a place's own name is made of the other words.
  func isReadWord(at offset: Int, hitsEndingBy limit: Int = .max, entities: Bool = false) -> Bool {
    functionWords.contains { $0.contains(offset) }
      || fillers.contains { $0.contains(offset) }
      || hits.contains { $0.range.contains(offset) && $0.range.upperBound <= limit }
      || (entities && self.entities.contains { $0.range.contains(offset) })
  }
}
