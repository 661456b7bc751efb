import Foundation
public import IntentEngine
import Skills

/// Reads the user's next utterance against a pending question: an answer that fills the missing
/// slots ("十分钟", "at 5pm"), or a command of its own that replaces the question.
///
/// Pure: it only parses with the engine, against the context it is given. The agent and
/// `intent bench` both use it, so the bench scores the follow-ups the session completes.
public struct FollowUpReader: Sendable {
  /// What the next utterance is, read against a pending question.
  public enum Reading: Sendable {
    /// The utterance answers the question.
    case answer(FollowUpAnswer)
    /// The utterance is not an answer: a new confident command, or nothing the question asked for.
    case command
  }

  /// The engine that parses answers.
  public let engine: Engine

  /// Creates a reader over `engine`.
  public init(engine: Engine) {
    self.engine = engine
  }

  /// Reads `text` (already parsed as `parse`) against `pending`.
  ///
  /// A confident command of another intent, several commands, or a confident command of the same
  /// intent that restates a slot already filled ("set a timer for the eggs" while the pasta timer
  /// waits for its length) replace the question. Otherwise each missing slot is read from the
  /// answer by its entity type, the way slots are read in utterances; the answer is one when it
  /// fills at least one of them.
  public func read(
    _ text: String, parse: ParseResult, answering pending: PendingQuestion, context: ParseContext
  ) -> Reading {
    guard let spec = engine.intents.first(where: { $0.id.rawValue == pending.intent }) else {
      return .command
    }
    if parse.clauses.count > 1 { return .command }
    var sameIntent = false
    if let intent = parse.intent, parse.route == .local {
      guard intent.rawValue == pending.intent else { return .command }
      let restates = parse.slots.contains { !pending.missingSlots.contains($0.name) }
      if restates { return .command }
      sameIntent = true
    }
    var filled: [FilledSlot] = []
    for name in pending.missingSlots {
      guard let slot = spec.slots.first(where: { $0.name == name }) else { continue }
      if sameIntent, let own = parse.slots.first(where: { $0.name == name }) {
        filled.append(own)
      } else if let value = value(of: slot, in: text, pending: pending, context: context) {
        filled.append(FilledSlot(name: slot.name, type: slot.type, value: value, source: text))
      }
    }
    guard !filled.isEmpty else { return .command }
    let missing = pending.missingSlots.filter { name in !filled.contains { $0.name == name } }
    var values = pending.slots.map { ($0.name, $0.value.json) }
    for slot in filled {
      values.removeAll { $0.0 == slot.name }
      values.append((slot.name, slot.json))
    }
    let order = spec.slots.map(\.name)
    let ordered = values.enumerated().sorted { a, b in
      let ia = order.firstIndex(of: a.element.0) ?? order.count
      let ib = order.firstIndex(of: b.element.0) ?? order.count
      return ia != ib ? ia < ib : a.offset < b.offset
    }.map(\.element)
    let prompt = missing.first.map {
      spec.prompt(for: $0, language: UserLanguage.of(pending.text).rawValue)
    }
    return .answer(
      FollowUpAnswer(
        filled: filled, slots: .object(ordered), missingSlots: missing, prompt: prompt))
  }

  /// The value the answer gives for `slot`, or nil when it gives none.
  private func value(
    of slot: SlotSpec, in text: String, pending: PendingQuestion, context: ParseContext
  ) -> SlotValue? {
    if slot.type == .text {
      let payload = text.trimmingCharacters(in: Self.payloadTrim)
      guard !payload.isEmpty else { return nil }
      return .text(String(String.UnicodeScalarView(payload.unicodeScalars.prefix(200))))
    }
    // An offset ("in 20 minutes") fills even an absolute time slot: the intent is already
    // decided, so in answer to "when?" the offset names a time, not a countdown.
    guard let value = engine.value(of: slot.type, in: text, context: context) else { return nil }
    guard case .duration(let seconds) = value else { return value }
    if slot.isShort, abs(seconds) >= 86_400 { return nil }
    guard slot.isSigned else { return value }
    // Which way a signed duration goes is said with the question ("take some time off the
    // timer") or with the answer ("two minutes less"): read both together for the sign.
    let joined = engine.parse(pending.text + " " + text, context: context)
    if joined.intent?.rawValue == pending.intent,
      case .duration(let signed)? = joined.slots.first(where: { $0.name == slot.name })?.value,
      signed < 0
    {
      return .duration(seconds: -abs(seconds))
    }
    return .duration(seconds: abs(seconds))
  }

  /// What is trimmed around a free-text answer: spaces and sentence punctuation.
  private static let payloadTrim = CharacterSet.whitespacesAndNewlines.union(
    CharacterSet(charactersIn: ".,!?;:。，！？；：、"))
}

/// An answer to a pending question: the slots it filled and what the command now holds.
public struct FollowUpAnswer: Sendable {
  /// The slots the answer filled.
  public var filled: [FilledSlot]
  /// Every slot of the command after the answer, in declaration order: the skill's input.
  public var slots: JSONValue
  /// Required slots still missing after the answer, in declaration order.
  public var missingSlots: [String]
  /// The question for the first slot still missing; nil when the command is complete.
  public var prompt: String?

  /// Whether the command can now run.
  public var isComplete: Bool { missingSlots.isEmpty }
}
