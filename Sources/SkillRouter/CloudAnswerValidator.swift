public import CloudFallback
import Foundation
public import IntentEngine
public import Skills

/// Checks a decoded cloud reply against the grammars and skills before anything runs.
///
/// The intent must be declared (and, when a registry is given, handled by a registered skill);
/// each slot value is normalised exactly like a local slot, a datetime through the engine's own
/// resolution in the user's zone; the input must decode into the skill's typed input. A
/// required slot the model left out is not an error: it becomes a follow-up question.
public struct CloudAnswerValidator: Sendable {
  /// The engine whose intents and slot rules apply.
  public let engine: Engine
  /// The skills that may run; nil checks the grammars only (as `intent bench` does).
  public let registry: SkillRegistry?

  /// Creates a validator.
  public init(engine: Engine, registry: SkillRegistry?) {
    self.engine = engine
    self.registry = registry
  }

  /// A reply that passed: the intent, its normalised slots and any required slot left out.
  public struct Answer: Sendable, Equatable {
    /// The declared intent the model chose.
    public var intent: IntentID
    /// The slot values, normalised as local slots are, in declaration order.
    public var slots: JSONValue
    /// Required slots the model did not fill, to be asked for.
    public var missingSlots: [String]
  }

  /// Validates `reply` for an utterance read at `context`.
  ///
  /// Returns nil when the model said no intent fits.
  /// - Throws: ``CloudFallbackError`` naming why the reply is rejected.
  public func validate(
    _ reply: CloudReply, context: ParseContext
  ) throws(CloudFallbackError) -> Answer? {
    guard let name = reply.intent else { return nil }
    guard let spec = spec(named: name) else { throw .unknownIntent(name) }
    if let registry, registry.skill(for: spec.id.rawValue) == nil {
      throw .unknownIntent(name)
    }
    let given = (try? JSONValue(parsing: reply.slots))?.members ?? []
    var values: [String: (key: String, value: JSONValue)] = [:]
    for (key, value) in given {
      let folded = CloudReply.normalizedKey(key)
      if values[folded] == nil { values[folded] = (key, value) }
    }
    var slots: [(String, JSONValue)] = []
    var missing: [String] = []
    for slot in spec.slots {
      let entry = values[CloudReply.normalizedKey(slot.name)]
      guard let entry, let value = try normalized(entry.value, for: slot, context: context) else {
        if slot.isRequired { missing.append(slot.name) }
        continue
      }
      slots.append((slot.name, value))
    }
    let input = JSONValue.object(slots)
    if missing.isEmpty, let skill = registry?.skill(for: spec.id.rawValue) {
      do {
        _ = try skill.call(with: Data(input.jsonText.utf8))
      } catch {
        throw .malformedReply("the input does not fit '\(spec.id)': \(error)")
      }
    }
    return Answer(intent: spec.id, slots: input, missingSlots: missing)
  }

  /// The declared intent a model's spelling names: exact, any case, or a function name.
  func spec(named name: String) -> IntentSpec? {
    let intents = engine.intents
    if let exact = intents.first(where: { $0.id.rawValue == name }) { return exact }
    let folded = CloudReply.normalizedKey(name)
    return intents.first { CloudReply.normalizedKey($0.id.rawValue) == folded }
  }

  /// A slot value normalised like a local one; nil for an absent (`null`, empty) value.
  func normalized(
    _ value: JSONValue, for slot: SlotSpec, context: ParseContext
  ) throws(CloudFallbackError) -> JSONValue? {
    let text: String
    switch value {
    case .null: return nil
    case .string(let string):
      text = string.trimmingCharacters(in: .whitespacesAndNewlines)
      if text.isEmpty || ["null", "none", "n/a"].contains(text.lowercased()) { return nil }
    case .number(let number):
      switch slot.type {
      case .number, .duration:
        guard number.isFinite else { throw invalid(slot, value, expected: "a finite number") }
        return .number(number)
      case .text, .location, .metric, .period, .list, .scope:
        return .string(JSONValue.number(number).jsonText)
      case .datetime, .date:
        throw invalid(slot, value, expected: expectedKind(slot.type))
      }
    case .bool(let flag):
      guard slot.type == .text else {
        throw invalid(slot, value, expected: expectedKind(slot.type))
      }
      return .string(flag ? "true" : "false")
    case .array, .object:
      throw invalid(slot, value, expected: expectedKind(slot.type))
    }
    switch slot.type {
    case .number, .duration:
      if let number = Double(text), number.isFinite { return .number(number) }
      if let read = engine.value(of: slot.type, in: text, context: context) {
        return read.json(as: slot.type)
      }
    case .datetime, .date:
      if var date = Self.isoDate(text, in: context.timeZone) {
        let grain: TimeGrain = text.count <= 10 ? .day : .second
        if grain == .day {
          // A day with no time is 09:00 of that day, as for local slots.
          date = context.calendar.date(bySettingHour: 9, minute: 0, second: 0, of: date) ?? date
        }
        let resolved = DateTimeValue(
          date: date, timeZone: context.timeZone, grain: grain, isWindow: false)
        return SlotValue.datetime(resolved).json(as: slot.type)
      }
      if let read = engine.value(of: slot.type, in: text, context: context) {
        return read.json(as: slot.type)
      }
    case .location:
      if let read = engine.value(of: .location, in: text, context: context) {
        return read.json(as: .location)
      }
      return .string(text)
    case .metric, .period:
      if let read = engine.value(of: slot.type, in: text, context: context) {
        return read.json(as: slot.type)
      }
      return .string(text.lowercased().replacingOccurrences(of: " ", with: "_"))
    case .list:
      if let read = engine.value(of: .list, in: text, context: context) {
        return read.json(as: .list)
      }
      return .string(String(text.lowercased().unicodeScalars.prefix(80)))
    case .scope:
      if let read = engine.value(of: .scope, in: text, context: context) {
        return read.json(as: .scope)
      }
      let all = ["all", "every", "everything", "全部", "所有", "都"]
      return .string(all.contains(text.lowercased()) ? "all" : text.lowercased())
    case .text:
      return .string(String(text.unicodeScalars.prefix(CloudPrompt.maximumTextLength)))
    }
    throw invalid(slot, value, expected: expectedKind(slot.type))
  }

  private func invalid(_ slot: SlotSpec, _ value: JSONValue, expected: String)
    -> CloudFallbackError
  {
    let shown = value.stringValue ?? value.jsonText
    return .invalidSlot(name: slot.name, value: String(shown.prefix(80)), expected: expected)
  }

  private func expectedKind(_ type: EntityType) -> String {
    switch type {
    case .duration: "a duration in seconds"
    case .number: "a number"
    case .datetime: "a date and time"
    case .date: "a date"
    case .location: "a place"
    case .text: "text"
    case .metric: "a metric"
    case .period: "a period"
    case .list: "a list name"
    case .scope: "a scope"
    }
  }

  /// An ISO 8601 date or date-time; one without an offset is read in `zone`.
  static func isoDate(_ text: String, in zone: TimeZone) -> Date? {
    let withOffset = ISO8601DateFormatter()
    withOffset.formatOptions = [.withInternetDateTime]
    if let date = withOffset.date(from: text) { return date }
    withOffset.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = withOffset.date(from: text) { return date }
    let local = DateFormatter()
    local.locale = Locale(identifier: "en_US_POSIX")
    local.timeZone = zone
    for format in [
      "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm",
      "yyyy-MM-dd",
    ] {
      local.dateFormat = format
      if let date = local.date(from: text) { return date }
    }
    return nil
  }
}
