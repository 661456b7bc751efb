import Foundation
import IntentEngine

/// How the engine answered one fixture line, reduced to what the bench metrics count.
struct BenchOutcome: Sendable {
  /// What went wrong with a line, worst first.
  enum Problem: String, Sendable, CaseIterable {
    /// An out-of-scope line was handled locally.
    case falseAccept = "false_accept"
    /// An in-scope line was handled locally as the wrong intent.
    case wrongIntent = "wrong_intent"
    /// An in-scope line was not handled locally (the cloud would be asked).
    case notLocal = "not_local"
    /// The intent was right but the slot set differs.
    case slots
    /// A multi-command line was split or routed differently.
    case clauses
    /// The line was handled locally, but its follow-up answer did not complete the command.
    case followUp = "follow_up"
  }

  var expected: IntentID?
  /// The top intent, whether or not it was routed locally.
  var predicted: IntentID?
  var confidence: Double
  /// The uncalibrated softmax share of the top candidate; nil when there was no candidate.
  var share: Double?
  var isLocal: Bool
  /// Whether the line may go local at all: some intent was found.
  var isEligible: Bool
  /// The intent's own threshold, when it declares one.
  var fixedThreshold: Double?
  /// Whether the slot set matched; nil when the line does not score slots.
  var slotMatch: Bool?
  /// What differs in the slots, for failure listings.
  var slotDifferences: [String] = []
  /// The expected clause intents of a multi-command line; nil for single commands.
  var expectedClauses: [IntentID?]?
  /// The decided clause intents (one element for a single command).
  var predictedClauses: [IntentID?] = []
  /// Whether the line's follow-up completed the command with the expected slots; nil when the
  /// line has no follow-up.
  var followUpMatch: Bool?
  /// Why the follow-up did not complete, for failure listings.
  var followUpDifferences: [String] = []

  /// Whether the line has a follow-up and was handled locally as the expected intent, so that
  /// a session would have asked its question (nil when the line has no follow-up).
  var isFollowUpAsked: Bool? { followUpMatch.map { _ in isLocal && isCorrect } }

  /// Whether the top intent is the expected one (for out-of-scope lines: no intent at all).
  var isCorrect: Bool { predicted == expected }

  /// Whether the line counts as right when handled locally: it has an intent and it is the expected one.
  var isCorrectIfLocal: Bool { predicted != nil && predicted == expected }

  /// Whether a multi-command line split into the expected intents; nil for single commands.
  var multiMatch: Bool? { expectedClauses.map { $0 == predictedClauses } }

  /// What the router decided locally: the intent when routed local, else none.
  var decided: IntentID? { isLocal ? predicted : nil }

  /// Everything wrong with the line, worst first; empty when the line passes.
  var problems: [Problem] {
    var found: [Problem] = []
    if expected == nil {
      if isLocal { found.append(.falseAccept) }
    } else {
      if isLocal, !isCorrect { found.append(.wrongIntent) }
      if !isLocal { found.append(.notLocal) }
      if isCorrect, slotMatch == false { found.append(.slots) }
    }
    if multiMatch == false { found.append(.clauses) }
    if followUpMatch == false, isLocal, isCorrect { found.append(.followUp) }
    return found
  }

  /// The rank of the worst problem (lower is worse), for sorting failure listings.
  var severity: Int {
    problems.first.flatMap { Problem.allCases.firstIndex(of: $0) } ?? Problem.allCases.count
  }

  /// The routing view of the line, for threshold tables.
  var routingSample: RoutingSample {
    RoutingSample(
      confidence: confidence, isCorrect: isCorrectIfLocal, isInScope: expected != nil,
      isEligible: isEligible, fixedThreshold: fixedThreshold)
  }

  /// Scores one parse result against its fixture line; the slots are scored on `guess` when the
  /// result has no intent (the best guess below the offline threshold, as accuracy judges it).
  init(fixture: BenchFixture, result: ParseResult, guess: ParseResult? = nil, engine: Engine) {
    expected = fixture.intent
    // Below the offline threshold the engine answers no intent; its best guess is still what
    // accuracy and calibration judge.
    predicted = result.intent ?? result.alternatives.first?.intent
    confidence = result.confidence
    isLocal = result.route == .local && result.intent != nil
    isEligible = predicted != nil
    share =
      predicted == nil
      ? nil : engine.calibration.shares(of: result.alternatives.map(\.score)).first
    if let intent = predicted {
      fixedThreshold = engine.intents.first { $0.id == intent }?.threshold
    }
    if let expectedSlots = fixture.slots, fixture.intent != nil {
      let scored = result.intent == nil ? guess ?? result : result
      slotDifferences = Self.differences(expected: expectedSlots, actual: scored.slotsJSON)
      slotMatch = scored.intent == fixture.intent && slotDifferences.isEmpty
    }
    let clauses = result.clauses.count > 1 ? result.clauses : [result]
    predictedClauses = clauses.map { $0.route == .local ? $0.intent : nil }
    expectedClauses = fixture.clauses?.map(\.intent)
  }

  /// Creates an outcome directly, for tests and synthetic reports.
  init(
    expected: IntentID?, predicted: IntentID?, confidence: Double, isLocal: Bool,
    share: Double? = nil, slotMatch: Bool? = nil, expectedClauses: [IntentID?]? = nil,
    predictedClauses: [IntentID?]? = nil
  ) {
    self.expected = expected
    self.predicted = predicted
    self.confidence = confidence
    self.isLocal = isLocal
    self.isEligible = predicted != nil
    self.share = share
    self.slotMatch = slotMatch
    self.expectedClauses = expectedClauses
    self.predictedClauses = predictedClauses ?? [isLocal ? predicted : nil]
  }

  /// Describes how `actual` differs from the complete expected slot set; empty when they agree.
  ///
  /// Numbers compare numerically (a number written as a string counts), strings exactly after
  /// trimming surrounding whitespace.
  static func differences(expected: JSONValue, actual: JSONValue) -> [String] {
    guard case .object(let wanted) = expected else { return [] }
    let got: [(String, JSONValue)] = if case .object(let members) = actual { members } else { [] }
    var differences: [String] = []
    for (name, value) in wanted {
      guard let actualValue = got.first(where: { $0.0 == name })?.1 else {
        differences.append("slot '\(name)' missing, expected \(value.jsonText)")
        continue
      }
      if !valuesMatch(value, actualValue) {
        differences.append("slot '\(name)' is \(actualValue.jsonText), expected \(value.jsonText)")
      }
    }
    for (name, value) in got where !wanted.contains(where: { $0.0 == name }) {
      differences.append("slot '\(name)' = \(value.jsonText) not expected")
    }
    return differences
  }

  static func valuesMatch(_ a: JSONValue, _ b: JSONValue) -> Bool {
    if let x = number(a), let y = number(b) {
      return abs(x - y) <= 1e-6 * max(1, abs(x), abs(y))
    }
    if case .string(let x) = a, case .string(let y) = b {
      return x.trimmingCharacters(in: .whitespaces) == y.trimmingCharacters(in: .whitespaces)
    }
    return a == b
  }

  private static func number(_ value: JSONValue) -> Double? {
    switch value {
    case .number(let n): n
    case .string(let s): Double(s.trimmingCharacters(in: .whitespaces))
    default: nil
    }
  }
}
