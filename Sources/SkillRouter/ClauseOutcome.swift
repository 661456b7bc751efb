import Foundation
public import IntentEngine

/// What happened to one command of an utterance: how it was routed and what its skill returned.
public struct ClauseOutcome: Sendable {
  /// How the command ended.
  public enum Status: Sendable, Equatable {
    /// The skill succeeded with this result.
    case succeeded(JSONValue)
    /// The skill failed for a network reason and this cached result, `age` seconds old, stands in.
    case stale(JSONValue, age: Double)
    /// The skill failed (or does not exist yet) and nothing stands in.
    case failed
    /// Nothing was understood; `suggestions` say what the engine can do.
    case notUnderstood(suggestions: [String])
    /// The intent is known but a required slot is missing; `prompt` asks for it.
    case needsSlots(prompt: String)
  }

  /// The cloud exchange, when the cloud was asked.
  public struct CloudExchange: Sendable, Equatable {
    /// The model's raw reply, with secrets redacted; nil when the call failed.
    public var rawReply: String?
    /// The JSON cut out of the reply.
    public var purified: String?
    /// Why the cloud's answer was not used.
    public var error: String?
    /// Time the cloud call took.
    public var elapsed: Duration
    /// The system prompt's estimated size in tokens.
    public var promptTokens: Int = 0
  }

  /// The local parse of this command.
  public var parse: ParseResult
  /// The final route.
  public var route: RouteKind
  /// Why that route was taken.
  public var routeReason: String
  /// The intent that was executed (the cloud's choice when routed to the cloud).
  public var intent: IntentID?
  /// The slot values passed to the skill.
  public var input: JSONValue?
  /// The cloud exchange, when the cloud was asked.
  public var cloud: CloudExchange?
  /// The skill's display name, when one was found.
  public var skill: String?
  /// How the command ended.
  public var status: Status
  /// Why it failed, or why a stale result stands in; nil on success.
  public var error: String?
  /// Whether the input could not be decoded for the skill.
  public var isInputError: Bool
  /// Required slots still missing for the executed intent (when the cloud decided it).
  public var missingSlots: [String] = []
  /// Why a forced cloud call (`--route cloud`) failed; the command exits 1.
  public var cloudFailure: String?
  /// Skill attempts made.
  public var attempts: Int
  /// Time the skill took, retries included.
  public var skillElapsed: Duration

  /// Whether the command needs attention: the skill failed with nothing cached.
  public var hasFailed: Bool { status == .failed || cloudFailure != nil }

  /// Whether the result is a cached stand-in.
  public var isStale: Bool {
    if case .stale = status { return true }
    return false
  }

  /// The skill's result, fresh or stale.
  public var result: JSONValue? {
    switch status {
    case .succeeded(let value), .stale(let value, _): value
    case .failed, .notUnderstood, .needsSlots: nil
    }
  }

  /// One line for people: the result's message, the error, or "not understood".
  public var summary: String {
    switch status {
    case .succeeded(let value):
      return value["message"]?.stringValue ?? value.jsonText
    case .stale(let value, let age):
      let message = value["message"]?.stringValue ?? value.jsonText
      return "\(message) (cached \(Self.describeAge(age)) ago: \(error ?? "the service failed"))"
    case .failed:
      return "error: \(error ?? "the skill failed")"
    case .needsSlots(let prompt):
      return prompt
    case .notUnderstood(let suggestions):
      guard !suggestions.isEmpty else { return "not understood" }
      return "not understood; I can: " + suggestions.joined(separator: "; ")
    }
  }

  static func describeAge(_ seconds: Double) -> String {
    // A cache file's date may be anything: a negative or absurd age must not trap.
    let s = seconds.isFinite ? Int(min(max(seconds, 0), 1e15).rounded()) : 0
    if s < 120 { return "\(s) s" }
    if s < 7200 { return "\(s / 60) min" }
    if s < 172_800 { return "\(s / 3600) h" }
    return "\(s / 86400) days"
  }

  /// The clause as an `intent run --json` object: the parse result plus what was done.
  public func json() -> JSONValue {
    var members = parse.json(includeExplanation: false).members
    members.replace("intent", with: intent.map { .string($0.rawValue) } ?? .null)
    members.replace("route", with: .string(route.rawValue))
    if let input { members.replace("slots", with: input) }
    if route == .cloud || route == .learned {
      members.removeAll { $0.0 == "missing_slots" }
      if !missingSlots.isEmpty {
        members.append(("missing_slots", .array(missingSlots.map { .string($0) })))
      }
    }
    if case .needsSlots(let prompt) = status {
      members.replace("missing_slots", with: .array(missingSlots.map { .string($0) }))
      members.replace("prompt", with: .string(prompt))
    }
    members.append(("route_reason", .string(routeReason)))
    if let cloud { members.append(("cloud_ms", .number(Trace.milliseconds(cloud.elapsed)))) }
    members.append(("skill", skill.map { .string($0) } ?? .null))
    members.append(("result", result ?? .null))
    members.append(("stale", .bool(isStale)))
    if case .stale(_, let age) = status { members.append(("age_seconds", .number(age.rounded()))) }
    members.append(("error", (error ?? cloudFailure).map { .string($0) } ?? .null))
    if case .notUnderstood(let suggestions) = status {
      members.append(("message", .string("not understood")))
      members.append(("suggestions", .array(suggestions.map { .string($0) })))
    }
    return .object(members)
  }
}

extension JSONValue {
  /// The members of an object, or none.
  var members: [(String, JSONValue)] {
    if case .object(let members) = self { return members }
    return []
  }
}

extension [(String, JSONValue)] {
  /// Replaces the value of `key` in place, or appends it.
  mutating func replace(_ key: String, with value: JSONValue) {
    if let index = firstIndex(where: { $0.0 == key }) {
      self[index].1 = value
    } else {
      append((key, value))
    }
  }
}
