/// A slot an intent declares: its name, entity type and whether the intent needs it.
public struct SlotSpec: Sendable, Equatable {
  /// The slot name, such as `datetime`.
  public var name: String
  /// The entity type that fills it.
  public var type: EntityType
  /// Whether a result without this slot cannot be executed.
  public var isRequired: Bool
  /// For time slots: whether only clock times and dates fill it, not offsets from now ("in 10
  /// minutes", "十分钟后"), which are durations in disguise.
  public var isAbsolute: Bool = false
  /// For durations, whether only lengths under a day fill it; for text, whether it ends at its
  /// first break between two Chinese words.
  ///
  /// A countdown of days ("高考倒计时一百天") counts down to a date, not a timer; a reminder's task
  /// is "去接娃", not "去接娃 幼儿园今天只上半天".
  public var isShort: Bool = false
  /// For durations: whether words of decrease ("take two minutes off", "减两分钟") make the value
  /// negative, so that one slot says both how much and which way.
  public var isSigned: Bool = false
}

/// What the grammars say about an intent, for routers, prompts and documentation.
public struct IntentSpec: Sendable {
  /// The intent id.
  public var id: IntentID
  /// Descriptions by language (`zh`, `en`), shown to the cloud model and in `intent check`.
  public var descriptions: [String: String]
  /// The declared slots, in declaration order.
  public var slots: [SlotSpec]
  /// A local threshold that overrides the global one, if declared.
  public var threshold: Double?
  /// Questions that ask for a missing required slot, by language (`zh`, `en`) and slot name.
  public var prompts: [String: [String: String]] = [:]

  /// The question that asks for `slot`, in `language` when the grammars give one there.
  ///
  /// Falls back to another language's question, then to a plain question naming the slot, so a
  /// missing slot is always asked for.
  public func prompt(for slot: String, language: String) -> String {
    if let text = prompts[language]?[slot] { return text }
    if let text = prompts.keys.sorted().lazy.compactMap({ self.prompts[$0]?[slot] }).first {
      return text
    }
    return language == "zh" ? "请告诉我\(slot)" : "What \(slot)?"
  }

  /// One description, preferring English, for prompts.
  public var description: String {
    descriptions["en"] ?? descriptions.sorted { $0.key < $1.key }.first?.value ?? id.rawValue
  }
}

/// A grammar example run by `intent check`.
public struct GrammarExample: Sendable {
  /// The utterance.
  public var text: String
  /// The intent it must reach, or the intent it must not reach when `isCounterexample`.
  public var intent: IntentID
  /// Whether the line must not be routed to `intent` locally.
  public var isCounterexample: Bool
  /// Expected slot values as written (`duration=180`).
  public var expectedSlots: [(name: String, value: String)]
  /// Where the example is written, as `path:line:column`.
  public var location: String
}

/// When an exclude line's words count against its intent.
struct ExcludeFlags: OptionSet, Sendable {
  let rawValue: UInt8

  /// The words mark a statement ("下雨了", "it's raining"): they count only when the utterance
  /// asks nothing.
  static let statement = ExcludeFlags(rawValue: 1)
  /// The words name others, people or other business: said as context before a command that
  /// speaks of the user ("陪孩子逛了一天 我今天走了多少步", "I'm on a work call, remind me in 20
  /// minutes …"), they do not make the command someone else's.
  static let others = ExcludeFlags(rawValue: 2)
  /// The words decline a service ("不需要计时 我看着锅呢"): they count only when no word of
  /// change ("了", "anymore") follows them in their clause, which makes them ask to stop
  /// something running ("不需要计时了").
  static let decline = ExcludeFlags(rawValue: 4)
  /// The words make something ("加到", "设"): they count only when the utterance ends by asking
  /// whether it is done already ("鸡蛋我加到购物清单了没", "周五那天我设闹钟了吗"), which asks about
  /// what exists instead of making it.
  static let done = ExcludeFlags(rawValue: 8)
  /// The same making words against reading what exists: they count unless the utterance ends by
  /// asking whether it is done already ("鸡蛋我加到购物清单了没" reads the list; "把鸡蛋加到购物清单"
  /// does not).
  static let making = ExcludeFlags(rawValue: 16)
  /// The words turn down what was said before them ("不要了"): ending a clause, they count in
  /// full even inside free text, since a task does not end by turning itself down
  /// ("提醒我取快递的那个不要了").
  static let final = ExcludeFlags(rawValue: 32)
}

/// One keyword group of a compiled intent.
struct CompiledGroup: Sendable {
  var name: String
  var weight: Double
  var isRequired: Bool
}

/// One intent after compilation; a class, so that scoring it takes a reference, not a copy.
final class CompiledIntent: Sendable {
  let spec: IntentSpec
  let groups: [CompiledGroup]
  /// Exclude penalties; nil means a veto.
  let excludes: [Double?]
  /// Per exclude line, when its words count.
  let excludeFlags: [ExcludeFlags]
  let patterns: [Pattern]
  /// Each pattern's ``Pattern/openingMask``, side by side: most patterns are ruled out by it, and
  /// reading it here does not touch (and retain) the pattern.
  let patternOpenings: [SIMD16<UInt64>]
  let hasTextSlot: Bool
  /// Whether one of its slots takes a place: then a place the gazetteer does not know is read.
  let takesPlace: Bool

  /// The intent id and its own threshold, read on every parse without copying the spec.
  let id: IntentID
  let threshold: Double?

  init(
    spec: IntentSpec, groups: [CompiledGroup], excludes: [Double?],
    excludeFlags: [ExcludeFlags], patterns: [Pattern], hasTextSlot: Bool
  ) {
    self.spec = spec
    self.id = spec.id
    self.threshold = spec.threshold
    self.groups = groups
    self.excludes = excludes
    self.excludeFlags = excludeFlags
    self.patterns = patterns
    self.patternOpenings = patterns.map(\.openingMask)
    self.hasTextSlot = hasTextSlot
    self.takesPlace = spec.slots.contains { $0.type == .location }
  }
}

/// What a lexicon entry means when it occurs in an utterance.
struct KeywordTarget: Sendable, Equatable {
  enum Kind: UInt8, Sendable {
    case group, exclude
  }
  var kind: Kind
  var intent: Int32
  var index: Int32
}

/// What a lexicon entry can be in an utterance; an entry can be several things at once.
struct EntryRole: OptionSet, Sendable {
  let rawValue: UInt32
  static let keyword = EntryRole(rawValue: 1)
  static let filler = EntryRole(rawValue: 2)
  static let conjunction = EntryRole(rawValue: 4)
  static let functionWord = EntryRole(rawValue: 8)
  /// A word naming whom one speaks to ("妈", "kids"): an utterance that opens with one alone is
  /// said to someone else.
  static let vocative = EntryRole(rawValue: 16)
  /// A word of self-correction ("no wait", "说错了"): what follows it replaces what came before.
  static let repair = EntryRole(rawValue: 32)
  /// A word that asks ("吗", "is it"): statement excludes do not count in a question.
  static let questionMarker = EntryRole(rawValue: 64)
  /// A word by which the user speaks of themselves ("我", "my"): a command that holds one is the
  /// user's own, whoever the context names.
  static let selfWord = EntryRole(rawValue: 128)
  /// A word that drops what was said ("never mind", "不管了"): at the end of an utterance, nothing
  /// before it is a command.
  static let abandon = EntryRole(rawValue: 256)
  /// A word a sentence cannot end on ("in", "did", "我的"): an utterance that ends on one broke
  /// off before it was said.
  static let cutoff = EntryRole(rawValue: 512)
  /// A word of decrease ("take off", "减"): a signed duration beside it is negative.
  static let decrease = EntryRole(rawValue: 1024)
  /// A word that means every item ("all", "所有"): fills a `scope` slot with `all`.
  static let scopeAll = EntryRole(rawValue: 2048)
  /// A name of the shopping list ("grocery list", "购物清单"): a `list` slot reads `shopping`.
  static let shoppingList = EntryRole(rawValue: 4096)
  /// A name of the to-do list ("to-do list", "待办"): a `list` slot reads `todo`.
  static let todoList = EntryRole(rawValue: 8192)
  /// The noun "list" itself ("list", "清单"): the word before it names the list ("packing list").
  static let listWord = EntryRole(rawValue: 16384)
  /// A word that follows place names ("天气", "weather"): an unknown place may open the sentence
  /// before it.
  static let placeFollower = EntryRole(rawValue: 32768)
  /// A word a question may end on ("what is my alarm set for", "what does my list consist of"):
  /// at the end of a question it breaks nothing off.
  static let strandable = EntryRole(rawValue: 65536)
  /// A relative pronoun ("which", "that"): right after an intent's keyword it opens a clause
  /// about that thing ("the timers which are running"), not a question.
  static let relative = EntryRole(rawValue: 131_072)
  /// A word that opens a new clause in run-on speech ("i", "because"): a command may end before
  /// it ("wake me at 5 tomorrow i got a flight to catch").
  static let clauseOpener = EntryRole(rawValue: 262_144)
  /// A keyword strong enough to carry a pattern of an intent that takes a place ("weather",
  /// "天气"): only beside one is a place the gazetteer does not know looked for.
  static let placeIntentKeyword = EntryRole(rawValue: 524_288)
}

/// Grammars compiled into indexes: the lexicon, keyword → intent targets, patterns and lists.
///
/// Immutable and `Sendable`, so one instance serves every thread without locks.
public struct CompiledGrammar: Sendable {
  /// The segmentation and keyword lexicon.
  public internal(set) var lexicon: Lexicon
  var intents: [CompiledIntent]
  /// Lexicon entry → what it means; an entry index past the end means nothing.
  var targets: [[KeywordTarget]]
  /// Per lexicon entry, what it is, as ``EntryRole`` bits: one array read on the hot path.
  var roles: [EntryRole]
  /// Per lexicon entry, the heaviest keyword group it belongs to (0 when none).
  var strongestWeight: [Double]
  /// Per entity type (by ``EntityType/rank``), the keyword groups that an entity of that type
  /// counts for (`keywords length (weight 1.5): {duration}`).
  var entityTargets: [[KeywordTarget]]
  /// Each grammar folder's words on their own, when more than one folder is loaded: where they
  /// split the text, that folder's keywords are found too.
  var folderLexicons: [FolderLexicon]
  /// Single Latin keywords and their one-letter deletions → entries, for typo-tolerant matching.
  var typoIndex: TypoIndex
  /// Chinese keywords by their syllables, for reading a homophone slip as the keyword.
  var homophones: HomophoneIndex
  /// What a Chinese name used in address looks like (小王, 张姐), from the `surnames` and
  /// `address_forms` lists.
  var names: NameShapes
  /// Words that say a state changed (了, "anymore"), from the `change_words` lists.
  var changeWords: ChangeWords
  /// Endings that ask whether something is done already (了吗, 了没), from the `done_questions`
  /// lists.
  var doneQuestions: DoneQuestions
  /// Every example, for `intent check`.
  public internal(set) var examples: [GrammarExample]
  /// Warnings from loading (unused lists and the like).
  public internal(set) var warnings: [Diagnostic]
  /// The confidence calibration and thresholds.
  public internal(set) var calibration: Calibration

  /// The intents, in id order.
  public var intentSpecs: [IntentSpec] { intents.map(\.spec) }
}

/// The shape of a Chinese name used to address someone: a form of address and a surname, in either
/// order (小王, 老李, 阿陈, 张姐, 刘老师).
///
/// Names cannot be listed, but these shapes can: an utterance that opens with one alone
/// ("小王，你记一下…") is said to that person.
struct NameShapes: Sendable {
  var surnames: Set<Unicode.Scalar> = []
  var forms: Set<[Unicode.Scalar]> = []

  /// Whether `clause` is a form of address joined to a surname.
  func isName(_ clause: ArraySlice<Unicode.Scalar>) -> Bool {
    guard (2...4).contains(clause.count), let first = clause.first, let last = clause.last else {
      return false
    }
    if surnames.contains(last), forms.contains(Array(clause.dropLast())) { return true }
    return surnames.contains(first) && forms.contains(Array(clause.dropFirst()))
  }
}

/// Endings that ask whether something is done already ("了吗", "了没"), for `done` excludes.
///
/// Matched as text at the end of the utterance, before trailing particles: as words, "了没" would
/// hide the 了 and 没 that patterns spell apart ("今天步数够一万了没").
struct DoneQuestions: Sendable {
  var endings: [[Unicode.Scalar]] = []

  /// Whether the utterance ends with one of the endings.
  func end(_ text: NormalizedText) -> Bool {
    guard !endings.isEmpty else { return false }
    let scalars = text.scalars
    var end = scalars.count
    while end > 0, scalars[end - 1] == " " || Self.particles.contains(scalars[end - 1]) {
      end -= 1
    }
    return endings.contains { ending in
      ending.count <= end && scalars[(end - ending.count)..<end].elementsEqual(ending)
    }
  }

  /// Particles that may follow the question ("加了没呀").
  private static let particles: Set<Unicode.Scalar> = ["呢", "啊", "呀", "哈", "哦"]
}

/// Words that say a state changed ("不需要计时了", "don't need it anymore"), for `decline`
/// excludes.
///
/// Matched as text, not as words: "了" is often the end of a longer word ("不要了").
struct ChangeWords: Sendable {
  var words: [[Unicode.Scalar]] = []

  /// Whether one of the words follows `offset` in the clause it belongs to.
  func follow(_ offset: Int, in text: NormalizedText) -> Bool {
    let scalars = text.scalars
    var position = offset
    while position < scalars.count, !text.isClauseBreak(at: position) {
      for word in words where scalars[position] == word[0] {
        if position + word.count <= scalars.count,
          scalars[position..<position + word.count].elementsEqual(word)
        {
          return true
        }
      }
      position += 1
    }
    return false
  }
}
