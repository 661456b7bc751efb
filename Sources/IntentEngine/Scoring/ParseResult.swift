/// What the router would do with a parse result before any cloud call.
public enum LocalRoute: String, Sendable, Codable {
  /// Confident enough to run on the device.
  case local
  /// Not confident: ask the cloud, or fall back to the offline threshold.
  case fallback
}

/// A slot filled from an entity, with the user's words it came from.
public struct FilledSlot: Sendable, Equatable {
  /// The slot name declared by the intent, such as `datetime`.
  public var name: String
  /// The slot's declared type; decides how the value is rendered.
  public var type: EntityType
  /// The normalised value.
  public var value: SlotValue
  /// The user's own words the value was read from.
  public var source: String
  /// A remark for the explanation, such as how a range was resolved.
  public var note: String?

  /// Creates a filled slot.
  public init(name: String, type: EntityType, value: SlotValue, source: String, note: String? = nil)
  {
    self.name = name
    self.type = type
    self.value = value
    self.source = source
    self.note = note
  }

  /// The value as the CLI contract renders it.
  public var json: JSONValue { value.json(as: type) }
}

/// A ranked candidate intent other than (or including) the winner.
public struct Alternative: Sendable, Equatable {
  /// The candidate intent.
  public var intent: IntentID
  /// Its calibrated confidence.
  public var confidence: Double
  /// Its raw evidence score, before calibration.
  public var score: Double

  /// Creates an alternative.
  public init(intent: IntentID, confidence: Double, score: Double) {
    self.intent = intent
    self.confidence = confidence
    self.score = score
  }
}

/// One piece of evidence behind a decision and what it contributed to the score.
public struct Evidence: Sendable, Equatable {
  /// The kind of evidence.
  public enum Kind: String, Sendable, Codable {
    case keyword, pattern, entity, exclude, coverage, requiredGroup = "required_group"
    case missingSlot = "missing_slot", margin, threshold, note
  }
  /// How the detail is worded, kept in parts so that words are only joined when read.
  enum Wording: Sendable, Equatable {
    case plain(String)
    case keyword(word: String, spelled: String?, group: String)
    case exclude(word: String, inPayload: Bool)
    case pattern(source: String)
    case entity(type: String, words: String, slot: String, note: String?)
    case missingSlot(name: String, isText: Bool)
    case coverage(percent: Int)
    case margin(runnerUp: String, score: Double)
    case threshold(confidence: Double, threshold: Double, missingSlots: Bool)
    /// An intent whose keywords were said, ruled out by a veto before it was scored.
    case ruledOut(intent: String, word: String)
  }

  /// What kind of evidence this is.
  public var kind: Kind
  /// The amount added to (or, when negative, taken from) the raw score.
  public var contribution: Double
  var wording: Wording

  /// Creates a piece of evidence.
  public init(kind: Kind, detail: String, contribution: Double) {
    self.init(kind: kind, wording: .plain(detail), contribution: contribution)
  }

  init(kind: Kind, wording: Wording, contribution: Double) {
    self.kind = kind
    self.wording = wording
    self.contribution = contribution
  }

  /// What fired, in words: `keyword '提醒' (group trigger)`.
  public var detail: String {
    switch wording {
    case .plain(let text): text
    case .keyword(let word, let spelled, let group):
      "keyword '\(word)'" + (spelled.map { " (spelt '\($0)')" } ?? "") + " (group \(group))"
    case .exclude(let word, let inPayload): "exclude '\(word)'" + (inPayload ? " in the text" : "")
    case .pattern(let source): "pattern '\(source)'"
    case .entity(let type, let words, let slot, let note):
      "\(type) '\(words)' → slot '\(slot)'" + (note.map { " (\($0))" } ?? "")
    case .missingSlot(let name, let isText):
      "required slot '\(name)' " + (isText ? "is empty" : "not found")
    case .coverage(let percent): "explains \(percent)% of the text"
    case .margin(let runnerUp, let score):
      "runner-up '\(runnerUp)' scored \(Confidence.text(score, decimals: 2))"
    case .threshold(let confidence, let threshold, let missingSlots):
      "confidence \(Confidence.text(confidence, decimals: 2)) \(confidence >= threshold ? "≥" : "<") local threshold \(Confidence.text(threshold, decimals: 2))\(missingSlots ? "; required slots missing" : "")"
    case .ruledOut(let intent, let word): "\(intent) ruled out by '\(word)'"
    }
  }
}

/// The engine's answer for one utterance: the best intent, its slots, confidence and reasons.
public struct ParseResult: Sendable {
  /// The utterance (or, for a clause, its part) as the user wrote it.
  public var text: String
  /// The normalised text the grammars were matched against.
  public var normalizedText: String
  /// The best intent, or nil when nothing matched.
  public var intent: IntentID?
  /// Calibrated confidence in [0, 1] that `intent` is right.
  public var confidence: Double
  /// The raw evidence score of `intent`, before calibration.
  public var score: Double
  /// Whether the confidence clears the local threshold.
  public var route: LocalRoute
  /// The slots filled for `intent`, in declaration order.
  public var slots: [FilledSlot]
  /// Required slots of `intent` that the utterance did not fill.
  public var missingSlots: [String]
  /// The question that asks for the first missing slot, in the user's language; nil when none is missing.
  public var prompt: String?
  /// Ranked candidates, best first, including the winner.
  public var alternatives: [Alternative]
  /// Why `intent` won: what fired and what each contributed.
  public var explanation: [Evidence]
  /// One result per command when the utterance held several; empty for a single command.
  public var clauses: [ParseResult]
  /// What the winner's confidence was read from, for calibration.
  ///
  /// Nil when nothing matched.
  public var signals: ConfidenceSignals?

  /// Creates a result.
  public init(
    text: String, normalizedText: String, intent: IntentID?, confidence: Double, score: Double,
    route: LocalRoute, slots: [FilledSlot], missingSlots: [String], prompt: String? = nil,
    alternatives: [Alternative], explanation: [Evidence], clauses: [ParseResult] = [],
    signals: ConfidenceSignals? = nil
  ) {
    self.text = text
    self.normalizedText = normalizedText
    self.intent = intent
    self.confidence = confidence
    self.score = score
    self.route = route
    self.slots = slots
    self.missingSlots = missingSlots
    self.prompt = prompt
    self.alternatives = alternatives
    self.explanation = explanation
    self.clauses = clauses
    self.signals = signals
  }

  /// The value of the slot named `name`, rendered as in the CLI contract.
  public func slot(_ name: String) -> JSONValue? {
    slots.first { $0.name == name }?.json
  }

  /// The slots as a JSON object (name → rendered value), the input a skill decodes.
  public var slotsJSON: JSONValue {
    .object(slots.map { ($0.name, $0.json) })
  }

  /// The result as the CLI contract's JSON object.
  public func json(includeExplanation: Bool = true) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("text", .string(text)),
      ("intent", intent.map { .string($0.rawValue) } ?? .null),
      ("confidence", .number(Self.rounded(confidence))),
      ("route", .string(route.rawValue)),
      ("slots", slotsJSON),
    ]
    if !missingSlots.isEmpty {
      members.append(("missing_slots", .array(missingSlots.map { .string($0) })))
      if let prompt { members.append(("prompt", .string(prompt))) }
    }
    members.append(
      (
        "alternatives",
        .array(
          alternatives.map {
            .object([
              ("intent", .string($0.intent.rawValue)),
              ("confidence", .number(Self.rounded($0.confidence))),
            ])
          })
      ))
    if includeExplanation {
      members.append(("normalized", .string(normalizedText)))
      members.append(("score", .number(Self.rounded(score))))
      members.append(
        (
          "explanation",
          .array(
            explanation.map {
              .object([
                ("kind", .string($0.kind.rawValue)),
                ("detail", .string($0.detail)),
                ("contribution", .number(Self.rounded($0.contribution))),
              ])
            })
        ))
    }
    if clauses.count > 1 {
      members.append(
        ("clauses", .array(clauses.map { $0.json(includeExplanation: includeExplanation) })))
    }
    return .object(members)
  }

  /// Rounds to four decimals so output is stable and readable.
  static func rounded(_ value: Double) -> Double {
    (value * 10_000).rounded() / 10_000
  }
}
