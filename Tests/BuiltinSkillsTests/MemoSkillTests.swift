import BuiltinSkills
import Foundation
import Skills
import TestSupport
import Testing

struct MemoSkillTests {
  @Test func createKeepsTheTextListAndCreatedTime() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    #expect(
      try await skills.say("memo.create", #"{"text": "车停在B2层", "lang": "zh"}"#) == "已记下：车停在B2层")
    let added = try await skills.run(
      "memo.create", #"{"text": "eggs", "list": "shopping", "lang": "en"}"#)
    #expect(added["message"] as? String == "added 'eggs' to your shopping list")
    let memo = try #require(added["memo"] as? [String: Any])
    #expect(memo["list"] as? String == "shopping")
    #expect(memo["created_at"] as? String == "2026-11-30T09:00:00+08:00")
    let store = MemoStore(directory: skills.folder.url)
    #expect(try await store.memos().map(\.text) == ["车停在B2层", "eggs"])
  }

  @Test func listAnswersWhetherAnItemIsOnTheListAndWhenItWasAdded() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    _ = try await skills.run("memo.create", #"{"text": "eggs", "list": "shopping"}"#)
    _ = try await skills.run("memo.create", #"{"text": "牛奶", "list": "购物清单"}"#)
    skills.date.advance(by: 2 * 86_400)  // Wednesday
    #expect(
      try await skills.say("memo.list", #"{"list": "shopping", "text": "eggs", "lang": "en"}"#)
        == "yes, 'eggs' is on your shopping list (added Monday)")
    let no = try await skills.run(
      "memo.list", #"{"list": "shopping", "text": "butter", "lang": "en"}"#)
    #expect(no["found"] as? Bool == false)
    #expect(no["message"] as? String == "no, 'butter' is not on your shopping list")
    #expect(
      try await skills.say("memo.list", #"{"list": "shopping", "lang": "zh"}"#)
        == "购物清单有2项：eggs、牛奶")
  }

  @Test func deleteChecksAnItemOffSoItIsNoLongerOpen() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    _ = try await skills.run("memo.create", #"{"text": "eggs", "list": "shopping"}"#)
    _ = try await skills.run("memo.create", #"{"text": "bread", "list": "shopping"}"#)
    #expect(
      try await skills.say(
        "memo.delete", #"{"text": "the eggs", "list": "shopping", "lang": "en"}"#)
        == "took off from your shopping list: eggs")
    let store = MemoStore(directory: skills.folder.url)
    #expect(try await store.memos().map(\.text) == ["bread"])
    #expect(try await store.memos(includeDone: true).map(\.text) == ["eggs", "bread"])
    #expect(
      try await skills.say("memo.delete", #"{"text": "eggs", "list": "shopping", "lang": "zh"}"#)
        == "购物清单上没有eggs")
    #expect(
      try await skills.say("memo.delete", #"{"scope": "all", "list": "shopping", "lang": "zh"}"#)
        == "已从购物清单删掉：bread")
  }

  @Test func aMissingTextIsAskedFor() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    let result = try await skills.run("memo.create", #"{"lang": "zh"}"#)
    #expect(result["missing_slots"] as? [String] == ["text"])
    #expect(result["prompt"] as? String == "要记什么？")
  }
}

struct SkillWordingTests {
  @Test func anArticleIsNotPartOfATimersName() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    let result = try await skills.run("timer.start", #"{"duration": 600, "text": "the pasta"}"#)
    #expect(result["label"] as? String == "pasta")
  }

  @Test func cancellingWithNothingUpcomingSaysSo() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    #expect(
      try await skills.say("reminder.cancel", #"{"scope": "all", "lang": "en"}"#)
        == "no upcoming reminders")
  }

  @Test func takingOffAnItemThatIsNotThereNamesTheList() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    #expect(
      try await skills.say("memo.delete", #"{"text": "eggs", "list": "shopping", "lang": "en"}"#)
        == "'eggs' is not on your shopping list")
  }
}
