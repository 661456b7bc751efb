public import Foundation
public import IntentEngine

/// A command that waits for a detail: its intent, the slots already filled, and the question asked.
///
/// The user's next utterance in the same conversation may answer it ("十分钟", "at 5pm"); see
/// ``FollowUpReader``. It is Codable so that `intent run --session FILE` can keep it between runs.
public struct PendingQuestion: Sendable, Equatable, Codable {
  /// One slot value already filled, in the order the intent declares its slots.
  public struct Slot: Sendable, Equatable, Codable {
    /// The slot name, such as `text`.
    public var name: String
    /// The value as the CLI contract renders it.
    public var value: Value

    /// Creates a slot value.
    public init(name: String, value: Value) {
      self.name = name
      self.value = value
    }
  }

  /// A rendered slot value: slots render as numbers (durations in seconds) or strings.
  public enum Value: Sendable, Equatable, Codable {
    /// A number, such as a duration in seconds.
    case number(Double)
    /// A string, such as an ISO 8601 datetime or a reminder's title.
    case string(String)
    /// A flag.
    case bool(Bool)

    /// The value for a rendered JSON value; other JSON (arrays, objects, null) keeps its text.
    public init(_ json: JSONValue) {
      switch json {
      case .number(let number): self = .number(number)
      case .string(let text): self = .string(text)
      case .bool(let flag): self = .bool(flag)
      default: self = .string(json.jsonText)
      }
    }

    /// The value as JSON.
    public var json: JSONValue {
      switch self {
      case .number(let number): .number(number)
      case .string(let text): .string(text)
      case .bool(let flag): .bool(flag)
      }
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let flag = try? container.decode(Bool.self) {
        self = .bool(flag)
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else {
        self = .string(try container.decode(String.self))
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .number(let number): try container.encode(number)
      case .string(let text): try container.encode(text)
      case .bool(let flag): try container.encode(flag)
      }
    }
  }

  /// How long a question waits for its answer, in seconds: five minutes.
  ///
  /// An answer comes within seconds of the question, or within a minute or two when the user
  /// looks something up first. Later than that, "ten minutes" is more likely a new thought than an
  /// answer to an old question, and completing a forgotten command would surprise the user.
  /// Pinned by `FollowUpTests.questionExpiresAfterFiveMinutes`.
  public static let lifetime: TimeInterval = 300

  /// The intent that asked, such as `timer.start`.
  public var intent: String
  /// The utterance (or, in one with several commands, the command) that asked, as the user said it.
  public var text: String
  /// The slots already filled.
  public var slots: [Slot]
  /// The required slots still missing, in declaration order.
  public var missingSlots: [String]
  /// The question asked for the first missing slot, in the user's language.
  public var prompt: String
  /// The confidence in the intent when it was decided.
  public var confidence: Double
  /// Who decided the intent: `local`, `cloud`, `learned` or `offline`.
  public var route: RouteKind
  /// When the question was asked, on the one clock (`--now` when given).
  public var askedAt: Date

  enum CodingKeys: String, CodingKey {
    case intent, text, slots, prompt, confidence, route
    case missingSlots = "missing_slots"
    case askedAt = "asked_at"
  }

  /// Creates a pending question.
  public init(
    intent: String, text: String, slots: [Slot], missingSlots: [String], prompt: String,
    confidence: Double, route: RouteKind, askedAt: Date
  ) {
    self.intent = intent
    self.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    self.slots = slots
    self.missingSlots = missingSlots
    self.prompt = prompt
    self.confidence = confidence
    self.route = route
    self.askedAt = askedAt
  }

  /// The question a parse result leaves open, or nil when it has no intent or misses no slot.
  public init?(parse: ParseResult, route: RouteKind = .local, askedAt: Date) {
    guard let intent = parse.intent, let prompt = parse.prompt, !parse.missingSlots.isEmpty
    else { return nil }
    self.init(
      intent: intent.rawValue, text: parse.text,
      slots: parse.slots.map { Slot(name: $0.name, value: Value($0.json)) },
      missingSlots: parse.missingSlots, prompt: prompt, confidence: parse.confidence,
      route: route, askedAt: askedAt)
  }

  /// The question as a JSON object, as the session file and traces hold it.
  public var json: JSONValue {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    guard let data = try? encoder.encode(self), let value = try? JSONValue(parsing: data) else {
      return .null
    }
    return value
  }

  /// The question a JSON object holds (as ``json`` writes it), or nil when it holds none.
  public init?(json: JSONValue) {
    guard case .object = json else { return nil }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    guard let question = try? decoder.decode(Self.self, from: Data(json.jsonText.utf8)) else {
      return nil
    }
    self = question
  }

  /// The filled slots as a JSON object (name → rendered value).
  public var slotsJSON: JSONValue {
    .object(slots.map { ($0.name, $0.value.json) })
  }

  /// Whether the question can no longer be answered at `now`: more than ``lifetime`` has passed,
  /// or `now` is before it was asked (a clock read earlier than the question cannot answer it).
  public func isExpired(at now: Date) -> Bool {
    let age = now.timeIntervalSince(askedAt)
    return age < 0 || age > Self.lifetime
  }
}
