public import Foundation
public import IntentEngine
public import Skills

/// Decision records as JSON lines, for `--trace` and `intent replay`.
///
/// A line holds the text, candidates and why, route, cloud exchange, skill timings and outcome.
/// Secrets never appear: cloud replies and errors pass through a ``Redactor``.
public enum Trace {
  /// The version written in every line; replay reads this version.
  public static let version = 1

  /// The trace line for an outcome, recorded at `date`.
  public static func record(of outcome: AgentOutcome, at date: Date) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("version", .number(Double(version))),
      ("recorded_at", .string(iso8601(date, in: outcome.context.timeZone))),
      ("now", .string(iso8601(outcome.context.now, in: outcome.context.timeZone))),
      ("time_zone", .string(outcome.context.timeZone.identifier)),
      ("mode", .string(outcome.mode.rawValue)),
      ("text", .string(outcome.text)),
      ("normalized", .string(outcome.parse.normalizedText)),
      ("clauses", .array(outcome.clauses.map(clauseRecord))),
      ("elapsed_ms", .number(milliseconds(outcome.elapsed))),
      ("outcome", .string(outcome.hasFailure ? "failed" : "ok")),
    ]
    // A follow-up answer ("ten minutes") means something only with the question it answered.
    if let answered = outcome.answered { members.append(("answers", answered.json)) }
    return .object(members)
  }

  static func clauseRecord(_ clause: ClauseOutcome) -> JSONValue {
    let parse = clause.parse
    var members: [(String, JSONValue)] = [
      ("text", .string(parse.text)),
      ("normalized", .string(parse.normalizedText)),
      ("parsed_intent", parse.intent.map { .string($0.rawValue) } ?? .null),
      ("confidence", .number(rounded(parse.confidence))),
      (
        "candidates",
        .array(
          parse.alternatives.map {
            .object([
              ("intent", .string($0.intent.rawValue)),
              ("confidence", .number(rounded($0.confidence))),
              ("score", .number(rounded($0.score))),
            ])
          })
      ),
      (
        "explanation",
        .array(
          parse.explanation.map {
            .object([
              ("kind", .string($0.kind.rawValue)), ("detail", .string($0.detail)),
              ("contribution", .number(rounded($0.contribution))),
            ])
          })
      ),
      ("slots", parse.slotsJSON),
      ("missing_slots", .array(parse.missingSlots.map { .string($0) })),
      ("route", .string(clause.route.rawValue)),
      ("route_reason", .string(clause.routeReason)),
    ]
    if let cloud = clause.cloud {
      members.append(
        (
          "cloud",
          .object([
            ("raw_reply", cloud.rawReply.map { .string($0) } ?? .null),
            ("purified", cloud.purified.map { .string($0) } ?? .null),
            ("error", cloud.error.map { .string($0) } ?? .null),
            ("elapsed_ms", .number(milliseconds(cloud.elapsed))),
            ("prompt_tokens", .number(Double(cloud.promptTokens))),
          ])
        ))
    } else {
      members.append(("cloud", .null))
    }
    members += [
      ("intent", clause.intent.map { .string($0.rawValue) } ?? .null),
      ("input", clause.input ?? .null),
      ("decode_error", clause.isInputError ? clause.error.map { .string($0) } ?? .null : .null),
      ("skill", clause.skill.map { .string($0) } ?? .null),
      ("attempts", .number(Double(clause.attempts))),
      ("skill_ms", .number(milliseconds(clause.skillElapsed))),
      ("outcome", .string(outcomeName(clause.status))),
      ("result", clause.result ?? .null),
      ("stale", .bool(clause.isStale)),
      ("error", clause.error.map { .string($0) } ?? .null),
    ]
    return .object(members)
  }

  static func outcomeName(_ status: ClauseOutcome.Status) -> String {
    switch status {
    case .succeeded: "ok"
    case .stale: "stale"
    case .failed: "failed"
    case .notUnderstood: "unmatched"
    case .needsSlots: "needs_slots"
    }
  }

  /// Appends one line to the trace file, creating it (and its folder) when needed.
  ///
  /// - Throws: ``SkillError/failed(_:)`` naming the file when it cannot be written.
  public static func append(_ record: JSONValue, to url: URL) throws(SkillError) {
    let line = Data((record.jsonText + "\n").utf8)
    let files = FileManager.default
    do {
      try files.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      if !files.fileExists(atPath: url.path) {
        guard files.createFile(atPath: url.path, contents: nil) else {
          throw SkillError.failed("cannot create")
        }
      }
      let handle = try FileHandle(forWritingTo: url)
      defer { try? handle.close() }
      try handle.seekToEnd()
      try handle.write(contentsOf: line)
    } catch {
      throw .failed("cannot append to trace file '\(url.path)'; check the path and permissions")
    }
  }

  static func iso8601(_ date: Date, in zone: TimeZone) -> String {
    Timestamp.iso8601(date, in: zone)
  }

  /// A duration in milliseconds, rounded to four decimals as traces record it.
  public static func milliseconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return rounded(Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15)
  }

  static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}
