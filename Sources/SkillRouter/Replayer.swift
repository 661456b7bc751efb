public import Foundation
public import IntentEngine

/// Re-decides traced utterances with today's grammars and reports what changed.
///
/// Nothing is executed and the cloud is not asked again: a command the cloud decided stays the
/// cloud's when today's parse would still ask it. Used to review a grammar change against real use.
public struct Replayer: Sendable {
  /// The engine with today's grammars.
  public let engine: Engine

  /// Creates a replayer.
  public init(engine: Engine) {
    self.engine = engine
  }

  /// What changed for one traced utterance.
  public struct Comparison: Sendable {
    /// The trace line number, from 1.
    public var line: Int
    /// The utterance.
    public var text: String
    /// One entry per difference, such as `clause 1 intent: weather.query → timer.start`.
    public var changes: [String]
    /// Whether anything changed.
    public var isChanged: Bool { !changes.isEmpty }

    /// The comparison as a JSON object for `intent replay --json`.
    public var json: JSONValue {
      .object([
        ("line", .number(Double(line))), ("text", .string(text)),
        ("changed", .bool(isChanged)), ("changes", .array(changes.map { .string($0) })),
      ])
    }
  }

  /// Why a trace line could not be replayed.
  public struct LineError: Error, Equatable, CustomStringConvertible {
    /// The trace line number, from 1.
    public var line: Int
    /// What is wrong with it.
    public var message: String
    public var description: String { "line \(line): \(message)" }

    /// Creates an error for line `line`.
    public init(line: Int, message: String) {
      self.line = line
      self.message = message
    }
  }

  /// The longest trace line read, in bytes.
  ///
  /// A line holds the utterance about four times (text and normalised text, whole and per
  /// command) plus a cloud reply; 8 MiB leaves room for a 1 MB utterance while a hostile
  /// 160 MB line is refused before it is parsed.
  public static let maximumLineBytes = 8 << 20

  /// The most commands a trace line may record; the engine splits an utterance into at most
  /// ``Engine/maximumClauses``, so anything far beyond that was not written by `intent run`.
  public static let maximumClauses = 64

  /// Replays every line of a trace file's contents; unreadable lines come back as errors.
  public func replay(contentsOf data: Data) -> [Result<Comparison, LineError>] {
    var results: [Result<Comparison, LineError>] = []
    let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    for (offset, bytes) in lines.enumerated() {
      let number = offset + 1
      guard bytes.count <= Self.maximumLineBytes else {
        results.append(
          .failure(
            LineError(
              line: number,
              message:
                "line is \(bytes.count) bytes; a trace line holds at most \(Self.maximumLineBytes)"
            )))
        continue
      }
      if bytes.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { continue }
      guard let record = try? JSONValue(parsing: Data(bytes)), case .object = record else {
        results.append(.failure(LineError(line: number, message: "not a JSON object")))
        continue
      }
      results.append(replay(record, line: number))
    }
    return results
  }

  /// Re-decides one trace record.
  public func replay(_ record: JSONValue, line: Int) -> Result<Comparison, LineError> {
    guard let text = record["text"]?.stringValue else {
      return .failure(
        LineError(line: line, message: "no 'text' field; is this an 'intent run' trace?"))
    }
    if let version = record["version"], version != .number(Double(Trace.version)) {
      return .failure(
        LineError(
          line: line,
          message: "trace version \(version.jsonText) is not supported; expected \(Trace.version)"))
    }
    var context = ParseContext()
    if let zoneName = record["time_zone"]?.stringValue, let zone = TimeZone(identifier: zoneName) {
      context.timeZone = zone
    }
    if let nowText = record["now"]?.stringValue {
      guard let now = ISO8601DateFormatter().date(from: nowText) else {
        return .failure(
          LineError(line: line, message: "'now' is not an ISO 8601 time: '\(nowText)'"))
      }
      context.now = now
    }
    let mode = record["mode"]?.stringValue.flatMap(RouteMode.init(rawValue:)) ?? .auto
    let recorded: [JSONValue]
    if case .array(let clauses) = record["clauses"] { recorded = clauses } else { recorded = [] }
    guard recorded.count <= Self.maximumClauses else {
      return .failure(
        LineError(
          line: line,
          message:
            "line records \(recorded.count) commands; a trace line holds at most \(Self.maximumClauses)"
        ))
    }

    let parse = engine.parse(text, context: context)
    var changes: [String] = []
    if let pending = record["answers"].flatMap(PendingQuestion.init(json:)) {
      let reading = FollowUpReader(engine: engine).read(
        text, parse: parse, answering: pending, context: context)
      if case .answer(let answer) = reading {
        return .success(
          Comparison(
            line: line, text: text,
            changes: Self.changes(answer, to: pending, recorded: recorded.first ?? .null)))
      }
      changes.append("no longer answers '\(pending.prompt)' asked by '\(pending.text)'")
    }
    let parts = parse.clauses.count > 1 ? parse.clauses : [parse]
    if parts.count != recorded.count {
      changes.append("commands: \(recorded.count) → \(parts.count)")
    }
    for (index, part) in parts.enumerated() {
      let old = index < recorded.count ? recorded[index] : .null
      let askedCloud = old["cloud"].map { $0 != .null } ?? false
      let router = Router(mode: mode, isCloudAvailable: askedCloud, calibration: engine.calibration)
      var step = router.firstStep(for: part)
      var intent = part.intent?.rawValue
      var slots: JSONValue? = part.slotsJSON
      if case .askCloud = step {
        // The cloud is not asked again: keep what it decided, or what the fallback did.
        let oldRoute = old["route"]?.stringValue
        if oldRoute == RouteKind.cloud.rawValue || oldRoute == RouteKind.learned.rawValue {
          step = .cloud(reason: "decided by the cloud when recorded")
          intent = old["intent"]?.stringValue
          slots = nil
        } else {
          step = router.step(after: .failed(reason: "not asked again"), for: part)
        }
      }
      let route = step.route ?? .unmatched
      if route == .unmatched { intent = nil }
      let prefix = parts.count > 1 || recorded.count > 1 ? "command \(index + 1) " : ""
      let oldIntent = old["intent"]?.stringValue
      if oldIntent != intent {
        changes.append("\(prefix)intent: \(oldIntent ?? "none") → \(intent ?? "none")")
      }
      let oldRoute = old["route"]?.stringValue ?? "none"
      if oldRoute != route.rawValue {
        changes.append("\(prefix)route: \(oldRoute) → \(route.rawValue)")
      }
      if let slots, route != .unmatched, let oldSlots = old["slots"],
        Self.sortedKeys(oldSlots) != Self.sortedKeys(slots), oldIntent == intent
      {
        changes.append("\(prefix)slots: \(oldSlots.jsonText) → \(slots.jsonText)")
      }
    }
    return .success(Comparison(line: line, text: text, changes: changes))
  }

  /// What changed for an utterance that still answers the question it answered when recorded.
  static func changes(
    _ answer: FollowUpAnswer, to pending: PendingQuestion, recorded old: JSONValue
  ) -> [String] {
    var changes: [String] = []
    let oldIntent = old["intent"]?.stringValue
    if oldIntent != pending.intent {
      changes.append("intent: \(oldIntent ?? "none") → \(pending.intent)")
    }
    let slots = JSONValue.object(answer.filled.map { ($0.name, $0.json) })
    if let oldSlots = old["slots"], sortedKeys(oldSlots) != sortedKeys(slots) {
      changes.append("slots: \(oldSlots.jsonText) → \(slots.jsonText)")
    }
    let oldMissing = old["missing_slots"] ?? .array([])
    let missing = JSONValue.array(answer.missingSlots.map { .string($0) })
    if oldMissing != missing {
      changes.append("missing slots: \(oldMissing.jsonText) → \(missing.jsonText)")
    }
    return changes
  }

  /// The value with every object's keys sorted, so that key order does not count as a change.
  static func sortedKeys(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
      .object(members.map { ($0.0, sortedKeys($0.1)) }.sorted { $0.0 < $1.0 })
    case .array(let items): .array(items.map(sortedKeys))
    default: value
    }
  }
}
