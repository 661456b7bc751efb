public import IntentEngine

/// A phrase the cloud resolved, remembered so that it is answered offline the next time.
public struct LearnedPhrase: Sendable, Equatable {
  /// The utterance as the engine normalised it: the key.
  public var text: String
  /// The intent the cloud chose.
  public var intent: String
  /// The validated slot values.
  public var slots: JSONValue
  /// How often the phrase was learned or answered from memory.
  public var count: Int

  /// Creates a learned phrase.
  public init(text: String, intent: String, slots: JSONValue, count: Int = 1) {
    self.text = text
    self.intent = intent
    self.slots = slots
    self.count = count
  }
}

/// Where validated cloud answers are remembered, keyed by normalised text.
///
/// ## Implementation requirements
///
/// - Never fail the caller: a store that cannot be read or written answers nothing and reports
///   the problem its own way.
/// - Be safe to share: two commands (or two processes) may learn at once.
public protocol PhraseMemory: Sendable {
  /// The phrase learned for `text`, counting the use; nil when none is.
  func recall(_ text: String) async -> LearnedPhrase?
  /// Remembers a validated cloud answer for `text`.
  func remember(_ text: String, intent: String, slots: JSONValue) async
}
