/// A position in a grammar file, for diagnostics.
struct SourcePosition: Sendable, Equatable {
  var path: String
  var line: Int
  var column: Int

  func diagnostic(_ message: Diagnostic.Message, severity: Diagnostic.Severity = .error)
    -> Diagnostic
  {
    Diagnostic(path: path, line: line, column: column, severity: severity, message)
  }
}

/// A word or `@list` reference as written in a grammar, with its position.
struct GrammarItem: Sendable {
  var text: String
  var position: SourcePosition
  /// The list name when the item is `@name`.
  var listReference: String? {
    text.utf8.first == UInt8(ascii: "@") ? String(Substring(text.unicodeScalars.dropFirst())) : nil
  }
}

/// One parsed grammar file.
struct GrammarFileSyntax: Sendable {
  var path: String
  /// The language folder the file sits in (`zh`, `en`), or the folder's own name for user grammars.
  var language: String
  var intents: [IntentSyntax] = []
  var lists: [ListSyntax] = []
}

/// A shared word list: `list fillers: 请, 帮我`.
struct ListSyntax: Sendable {
  var name: String
  var position: SourcePosition
  var items: [GrammarItem]
}

/// An intent block as written.
struct IntentSyntax: Sendable {
  var id: String
  var position: SourcePosition
  var language: String
  var description: String?
  var threshold: Double?
  var slots: [SlotSyntax] = []
  var prompts: [PromptSyntax] = []
  var groups: [KeywordGroupSyntax] = []
  var excludes: [ExcludeSyntax] = []
  var patterns: [PatternSyntax] = []
  var examples: [ExampleSyntax] = []
}

/// A slot declaration, such as `slot duration: duration required`.
struct SlotSyntax: Sendable {
  var name: String
  var type: String
  var isRequired: Bool
  /// Whether only clock times and dates fill it, not offsets such as "in 10 minutes".
  var isAbsolute: Bool
  /// Whether only durations under a day fill it.
  var isShort: Bool
  /// For durations: whether words of decrease ("take two minutes off") make the value negative.
  var isSigned = false
  var position: SourcePosition
  var typePosition: SourcePosition
}

/// The question asked when a required slot is missing: `prompt duration: 要计时多久？`.
struct PromptSyntax: Sendable {
  var slot: String
  var text: String
  var position: SourcePosition
}

/// A keyword group, such as `keywords trigger (weight 2, required): 倒计时, 计时器`.
struct KeywordGroupSyntax: Sendable {
  var name: String
  var weight: Double
  var isRequired: Bool
  var position: SourcePosition
  var items: [GrammarItem]
}

/// `exclude (penalty 1.5): 哪些, 什么` — a veto unless a penalty is given.
struct ExcludeSyntax: Sendable {
  var penalty: Double?
  /// When the words count: always, or only as ``ExcludeFlags`` says.
  var flags: ExcludeFlags = []
  var position: SourcePosition
  var items: [GrammarItem]
}

/// A sentence pattern, such as `pattern: {duration} [以]后 (提醒|叫)我`.
struct PatternSyntax: Sendable {
  var source: String
  var position: SourcePosition
}

/// `example: 三分钟后提醒我 => duration=180`, or `not: …` for a line that must not match.
struct ExampleSyntax: Sendable {
  var text: String
  var expectedSlots: [(name: String, value: String)]
  var isCounterexample: Bool
  var position: SourcePosition
}
