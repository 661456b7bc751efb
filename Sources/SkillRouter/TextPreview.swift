public import IntentEngine

/// What a text reads as while it is being typed: the intent, how sure the engine is, and the
/// slots it found; nothing has run.
public struct TextPreview: Sendable, Equatable {
  /// The text the preview is of.
  public var text: String
  /// The best intent, or nil when nothing matched.
  public var intent: String?
  /// Calibrated confidence in [0, 1].
  public var confidence: Double
  /// Whether the engine is confident enough to act on the text offline.
  public var isConfident: Bool
  /// The slot values found, as a JSON object.
  public var slots: JSONValue
  /// Required slots the text does not give yet.
  public var missingSlots: [String]

  /// Creates a preview.
  public init(
    text: String, intent: String?, confidence: Double, isConfident: Bool, slots: JSONValue,
    missingSlots: [String]
  ) {
    self.text = text
    self.intent = intent
    self.confidence = confidence
    self.isConfident = isConfident
    self.slots = slots
    self.missingSlots = missingSlots
  }

  /// The preview of a local parse (several commands: the first one's fields).
  public init(_ parse: ParseResult) {
    let first = parse.clauses.first ?? parse
    self.init(
      text: parse.text, intent: first.intent?.rawValue, confidence: first.confidence,
      isConfident: first.route == .local, slots: first.slotsJSON,
      missingSlots: first.missingSlots)
  }
}
