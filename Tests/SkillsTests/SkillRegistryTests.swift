import Skills
import Testing

struct SkillRegistryTests {
  @Test func rejectsTwoSkillsForOneIntent() {
    #expect(
      throws: SkillError.duplicateIntent("weather.query", first: "Echo", second: "Other")
    ) {
      try SkillRegistry([AnySkill(EchoSkill()), AnySkill(EchoSkill(displayName: "Other"))])
    }
  }

  @Test func duplicateMessageNamesBothSkills() {
    let error = SkillError.duplicateIntent("weather.query", first: "Echo", second: "Other")
    #expect(
      error.description
        == "intent 'weather.query' already has the skill 'Echo'; remove 'Other' or give it another intent"
    )
  }

  @Test func reportsIntentsWithoutSkillsAndSkillsWithoutIntents() throws {
    let registry = try SkillRegistry([
      AnySkill(EchoSkill()), AnySkill(EchoSkill(intentID: "timer.pause")),
    ])
    let coverage = registry.coverage(ofDeclaredIntents: [
      "weather.query", "memo.create", "health.query",
    ])
    #expect(coverage.intentsWithoutSkills == ["health.query", "memo.create"])
    #expect(coverage.skillsWithoutIntents == ["timer.pause"])
    #expect(coverage.messages.count == 2)
    #expect(coverage.messages[0].hasPrefix("no skill yet for 'health.query', 'memo.create'"))
  }

  @Test func looksSkillsUpByIntent() throws {
    let registry = try SkillRegistry([AnySkill(EchoSkill())])
    #expect(registry.skill(for: "weather.query")?.displayName == "Echo")
    #expect(registry.skill(for: "memo.create") == nil)
  }
}
