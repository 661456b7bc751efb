import CloudFallback
import Foundation
import IntentEngine
import SkillRouter
import Skills
import Testing

/// Cloud slot values are normalised exactly like local ones, in the user's zone.
struct CloudAnswerValidatorTests {
  static let engine = Result { try Engine.load() }
  let zone = TimeZone(identifier: "Asia/Shanghai") ?? .gmt
  var context: ParseContext {
    // 2026-12-01 09:00 +08:00
    ParseContext(now: Date(timeIntervalSince1970: 1_796_086_800), timeZone: zone)
  }

  func validate(_ json: String) throws -> CloudAnswerValidator.Answer? {
    let validator = CloudAnswerValidator(engine: try Self.engine.get(), registry: nil)
    return try validator.validate(try CloudReply.decode(json), context: context)
  }

  @Test(arguments: [
    ("2026-12-01T20:00:00Z", "2026-12-02T04:00:00+08:00"),
    ("2026-12-02T08:30", "2026-12-02T08:30:00+08:00"),
    ("2026-12-03", "2026-12-03T09:00:00+08:00"),
    ("tomorrow at 8am", "2026-12-02T08:00:00+08:00"),
    ("明天早上八点", "2026-12-02T08:00:00+08:00"),
  ])
  func datetimesAreResolvedInTheUsersZone(given: String, expected: String) throws {
    let answer = try #require(
      try validate(
        #"{"skill_id": "reminder.create", "input": {"datetime": "\#(given)", "text": "x"}}"#))
    #expect(answer.slots["datetime"] == .string(expected))
  }

  @Test func unknownSlotsAreDroppedAndMissingRequiredOnesListed() throws {
    let answer = try #require(
      try validate(#"{"skill_id": "Reminder.Create", "input": {"Text": "call mom", "rm": "-rf"}}"#))
    #expect(answer.intent.rawValue == "reminder.create")
    #expect(answer.slots == .object([("text", .string("call mom"))]))
    #expect(answer.missingSlots == ["datetime"])
  }

  @Test(arguments: [
    #"{"skill_id": "system.shutdown"}"#,
    #"{"skill_id": "reminder.create", "input": {"datetime": "whenever"}}"#,
    #"{"skill_id": "timer.start", "input": {"duration": [1, 2]}}"#,
  ])
  func invalidAnswersAreRejected(json: String) {
    #expect(throws: CloudFallbackError.self) { try validate(json) }
  }

  @Test func registryWithoutTheSkillRejectsTheIntent() throws {
    let validator = CloudAnswerValidator(
      engine: try Self.engine.get(), registry: try SkillRegistry([]))
    #expect(throws: CloudFallbackError.unknownIntent("timer.start")) {
      try validator.validate(
        try CloudReply.decode(#"{"skill_id": "timer.start", "input": {"duration": 60}}"#),
        context: context)
    }
  }
}
