import IntentEngine
import SkillRouter

extension BenchOutcome {
  /// Scores a line's follow-up as a session would play it: the line must be routed locally as
  /// the expected intent, asking for the expected missing slots; the answer, read by the same
  /// ``FollowUpReader`` the agent uses, must then complete exactly the expected slot set.
  ///
  /// Lines without a `follow_up` are left unscored.
  mutating func scoreFollowUp(
    of fixture: BenchFixture, result: ParseResult, engine: Engine, context: ParseContext
  ) {
    guard let followUp = fixture.followUp else { return }
    followUpDifferences = Self.followUpDifferences(
      followUp, fixture: fixture, result: result, engine: engine, context: context)
    followUpMatch = followUpDifferences.isEmpty
  }

  /// Why the follow-up does not complete the command; empty when it does.
  static func followUpDifferences(
    _ followUp: BenchFixture.FollowUp, fixture: BenchFixture, result: ParseResult, engine: Engine,
    context: ParseContext
  ) -> [String] {
    guard let intent = result.intent, result.route == .local else {
      return ["the line is not handled locally, so nothing asks for the follow-up"]
    }
    guard intent == fixture.intent else { return ["the line is read as '\(intent)'"] }
    let expectedMissing = fixture.missingSlots ?? result.missingSlots
    guard result.missingSlots == expectedMissing else {
      return [
        "the line misses \(list(result.missingSlots)), expected \(list(expectedMissing))"
      ]
    }
    guard let pending = PendingQuestion(parse: result, askedAt: context.now) else {
      return ["the line asks for nothing"]
    }
    let answer = engine.parse(followUp.text, context: context)
    let reading = FollowUpReader(engine: engine).read(
      followUp.text, parse: answer, answering: pending, context: context)
    guard case .answer(let completed) = reading else {
      return ["the answer '\(followUp.text)' is not read as an answer"]
    }
    var differences = differences(expected: followUp.slots, actual: completed.slots)
    if !completed.isComplete {
      differences.insert("the answer leaves \(list(completed.missingSlots)) missing", at: 0)
    }
    return differences
  }

  private static func list(_ names: [String]) -> String {
    names.isEmpty ? "no slot" : names.map { "'\($0)'" }.joined(separator: ", ")
  }
}
