/// A keyword, exclude or list word found in an utterance.
struct KeywordHit: Sendable {
  var range: Range<Int>
  var entry: Int32
  /// Whether the word was a misspelling one edit away from the keyword.
  var isCorrected = false
  /// Whether that misspelling is itself a real word ("time" read as "timer").
  var isRealWord = false

  /// Whether a real word was read as a near keyword: it is that word, for or against nothing.
  var isMisread: Bool { isCorrected && isRealWord }
}

/// A hit together with one intent it counts for, as a keyword or an exclude.
struct TargetedHit {
  var hit: KeywordHit
  var target: KeywordTarget
}

/// Everything read from one utterance before intents are compared.
///
/// A class: every candidate, clause and reading of a parse looks at the same analysis, and a
/// reference costs one retain where a copy of its two dozen arrays costs one each.
final class Analysis {
  let text: NormalizedText
  let tokens: [Token]
  /// Sorted by start, then end; a place the gazetteer does not know is added once read.
  private(set) var entities: [Entity]
  let hits: [KeywordHit]
  /// Ranges of filler words ("请", "一下", "please").
  let fillers: [Range<Int>]
  /// Ranges of conjunctions ("顺便", "and then").
  let conjunctions: [Range<Int>]
  /// Ranges of function words ("吗", "the"): not evidence, not unexplained content.
  let functionWords: [Range<Int>]
  /// Where the speaker corrects themselves ("no wait", "说错了"): what follows the last one
  /// replaces what came before.
  let repairs: [Range<Int>]
  /// The matching steps the parse has left, shared by every analysis of one parse.
  let matchBudget: MatchBudget?
  /// Where the speaker drops what they said ("never mind"): when nothing but politeness follows
  /// the last one, the utterance is no command.
  let abandons: [Range<Int>]
  /// The word the utterance breaks off on ("what's the weather like in uh", "加到我的"), if it
  /// ends on one: then it was never finished.
  let breaksOff: Range<Int>?
  /// Whether the utterance asks something: a question word or a question mark.
  ///
  /// Statement excludes ("下雨了") do not count then ("下雨了吗").
  let asks: Bool
  /// Where the user speaks of themselves ("我", "my").
  let selfMentions: [Range<Int>]
  /// Whether a word of decrease ("take off", "减") is said: signed durations are negative.
  let decreases: Bool
  /// The word that means every item ("all", "所有"), if one is said.
  let scopeAll: Range<Int>?
  /// Words that follow place names ("天气" in "桂平市天气"): an unknown place may stand before them.
  let placeFollowers: [Range<Int>]
  /// Words that open a new clause in run-on speech ("i", "because"), where a command said
  /// before context may end without punctuation.
  let clauseOpeners: [Range<Int>]
  /// The list the utterance names, normalised (`shopping`, `todo`, or the user's words).
  var listName: (range: Range<Int>, name: String)?
  /// The word naming whom the utterance is said to, when it opens the utterance as a clause of
  /// its own ("妈，你出门记得带伞", "kids, boots on, it's raining"): then it is not said to us.
  let addressee: Range<Int>?
  /// Countable scalars in the utterance: not spaces, and one per number.
  let contentLength: Int
  /// For each offset 0...n, how many countable scalars before it no filler or function word
  /// covers: what evidence may still explain.
  let openBefore: [Int32]
  /// For each offset 0...n, how many scalars before it are neither spaces nor covered by
  /// fillers and function words: free text must hold at least one.
  let contentBefore: [Int32]
  /// Countable scalars that fillers and function words cover: explained for every intent.
  let wordExplained: Int
  /// For each offset 0...n, whether a word may start or end there: token edges and spaces.
  ///
  /// Keywords and pattern words never split a token ("备忘" is not in "备忘录").
  let boundaries: [Bool]

  init(
    text: NormalizedText, tokens: [Token], entities: [Entity], hits: [KeywordHit],
    fillers: [Range<Int>], conjunctions: [Range<Int>], functionWords: [Range<Int>],
    repairs: [Range<Int>], matchBudget: MatchBudget?, abandons: [Range<Int>],
    breaksOff: Range<Int>?, asks: Bool, selfMentions: [Range<Int>], decreases: Bool,
    scopeAll: Range<Int>?, placeFollowers: [Range<Int>], addressee: Range<Int>?,
    contentLength: Int, openBefore: [Int32], contentBefore: [Int32], wordExplained: Int,
    boundaries: [Bool], clauseOpeners: [Range<Int>]
  ) {
    self.text = text
    self.tokens = tokens
    self.entities = entities
    self.hits = hits
    self.fillers = fillers
    self.conjunctions = conjunctions
    self.functionWords = functionWords
    self.repairs = repairs
    self.matchBudget = matchBudget
    self.abandons = abandons
    self.breaksOff = breaksOff
    self.asks = asks
    self.selfMentions = selfMentions
    self.decreases = decreases
    self.scopeAll = scopeAll
    self.placeFollowers = placeFollowers
    self.addressee = addressee
    self.contentLength = contentLength
    self.openBefore = openBefore
    self.contentBefore = contentBefore
    self.wordExplained = wordExplained
    self.boundaries = boundaries
    self.clauseOpeners = clauseOpeners
  }
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

extension Analysis {
  /// Adds `entity` where the order by start, then end, puts it.
  func insert(_ entity: Entity) {
    let index =
      entities.firstIndex {
        ($0.range.lowerBound, $0.range.upperBound) > (
          entity.range.lowerBound, entity.range.upperBound
        )
      } ?? entities.count
    entities.insert(entity, at: index)
  }
}
