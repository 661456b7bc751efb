import Foundation
import Skills
import Testing

struct AnySkillTests {
  let skill = AnySkill(EchoSkill())

  @Test func decodesSlotsAndEncodesOutputAsJSON() async throws {
    let call = try skill.call(with: json(#"{"days": 3, "city": "杭州"}"#))
    let output = try await call.perform()
    #expect(output.canonicalJSON == #"{"city":"杭州","days":3}"#)
  }

  @Test func namesAMissingRequiredSlot() {
    #expect(throws: SkillError.invalidInput("slot 'city' is required")) {
      try skill.call(with: json(#"{"days": 3}"#))
    }
  }

  @Test func namesAMistypedSlot() {
    #expect(throws: SkillError.invalidInput("slot 'days' should be a number")) {
      try skill.call(with: json(#"{"city": "杭州", "days": "three"}"#))
    }
  }

  @Test func rejectsInputThatIsNotJSON() {
    #expect(throws: SkillError.invalidInput("input is not a JSON object of slots")) {
      try skill.call(with: json("not json"))
    }
  }

  @Test func canonicalInputIgnoresKeyOrder() throws {
    let a = try skill.call(with: json(#"{"city": "杭州", "days": 2}"#))
    let b = try skill.call(with: json(#"{"days": 2, "city": "杭州"}"#))
    #expect(a.cacheKey == b.cacheKey)
  }
}
