import BuiltinSkills
import Foundation
import Skills
import TestSupport
import Testing

struct ReminderSkillTests {
  @Test func createStoresTitleAndFireDateAndAnswersInTheUsersLanguage() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    let zh = try await skills.run(
      "reminder.create", #"{"datetime": "2026-12-01T07:00:00+08:00", "text": "带伞", "lang": "zh"}"#)
    #expect(zh["message"] as? String == "已设置提醒：明天 07:00 带伞")
    let en = try await skills.say(
      "reminder.create",
      #"{"datetime": "2026-12-01T07:00:00+08:00", "text": "take an umbrella", "lang": "en"}"#)
    #expect(en == "Reminder set for tomorrow 07:00: take an umbrella")
    let store = ReminderStore(directory: skills.folder.url, wallClock: .fixed(skills.date.now))
    let stored = try await store.upcoming()
    #expect(stored.map(\.title) == ["带伞", "take an umbrella"])
    #expect(stored.first?.fireDate == Date(timeIntervalSince1970: 1_796_079_600))
  }

  @Test func aReminderInThePastIsRefused() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    await #expect(
      throws: SkillError.invalidInput(
        "the time '2026-11-30T08:00:00+08:00' has already passed; say a later time for the reminder"
      )
    ) {
      _ = try await skills.run("reminder.create", #"{"datetime": "2026-11-30T08:00:00+08:00"}"#)
    }
  }

  @Test func aMissingTimeIsAskedFor() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    let result = try await skills.run("reminder.create", #"{"text": "call mom", "lang": "en"}"#)
    #expect(result["missing_slots"] as? [String] == ["datetime"])
    #expect(result["prompt"] as? String == "When should I remind you?")
    #expect(try await skills.say("reminder.create", #"{"lang": "zh"}"#) == "什么时候提醒你？")
    let store = ReminderStore(directory: skills.folder.url, wallClock: .fixed(skills.date.now))
    #expect(try await store.upcoming().isEmpty)
  }

  func seed(_ skills: SkillHarness) async throws {
    for (time, title) in [
      ("2026-12-01T07:00:00+08:00", "带伞"), ("2026-12-01T09:30:00+08:00", "开会"),
      ("2026-12-02T08:00:00+08:00", "dentist"),
    ] {
      _ = try await skills.run(
        "reminder.create", #"{"datetime": "\#(time)", "text": "\#(title)"}"#)
    }
  }

  @Test func listAnswersForADayOrAllUpcoming() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    try await seed(skills)
    #expect(
      try await skills.say("reminder.list", #"{"date": "2026-12-01", "lang": "zh"}"#)
        == "明天有2个提醒：07:00 带伞；09:30 开会")
    #expect(
      try await skills.say("reminder.list", #"{"lang": "en"}"#)
        == "3 upcoming reminders: tomorrow 07:00 带伞; tomorrow 09:30 开会; Dec 2 08:00 dentist")
    #expect(
      try await skills.say("reminder.list", #"{"date": "2026-12-05", "lang": "en"}"#)
        == "no reminders for Dec 5")
    #expect(
      try await skills.say("reminder.list", #"{"text": "the dentist", "lang": "en"}"#)
        == "1 upcoming reminder: Dec 2 08:00 dentist")
  }

  @Test func cancelRemovesByTitleTimeOrAllOfADayAndSaysWhat() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    try await seed(skills)
    #expect(
      try await skills.say("reminder.cancel", #"{"text": "dentist reminder", "lang": "en"}"#)
        == "cancelled 1 reminder: Dec 2 08:00 dentist")
    try await seed(skills)
    #expect(
      try await skills.say(
        "reminder.cancel", #"{"datetime": "2026-12-01T09:30:00+08:00", "lang": "zh"}"#)
        == "已取消2个提醒：明天 09:30 开会；明天 09:30 开会")
    let removed = try await skills.run(
      "reminder.cancel", #"{"date": "2026-12-01", "scope": "all", "lang": "zh"}"#)
    #expect(
      (removed["removed"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == [
        "带伞", "带伞",
      ])
    let store = ReminderStore(directory: skills.folder.url, wallClock: .fixed(skills.date.now))
    #expect(try await store.upcoming().map(\.title) == ["dentist"])
    #expect(
      try await skills.say("reminder.cancel", #"{"text": "swimming", "lang": "en"}"#)
        == "no reminder matched; nothing was cancelled")
  }

  @Test func cancelWithoutDetailsAsksWhichWhenThereAreSeveral() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    try await seed(skills)
    #expect(
      try await skills.say("reminder.cancel", #"{"lang": "en"}"#)
        == "you have 3 reminders; which one should I cancel?")
    let all = try await skills.run("reminder.cancel", #"{"scope": "all", "text": "my alarms"}"#)
    #expect((all["removed"] as? [Any])?.count == 3)
  }

  @Test func aDueReminderIsReportedOnce() async throws {
    let skills = try SkillHarness()
    defer { skills.folder.remove() }
    try await seed(skills)
    skills.date.advance(by: 86_400 + 3_600)
    let due = DueCollector(directory: skills.folder.url, wallClock: WallClock { skills.date.now })
    let items = try await due.takeDue()
    #expect(items.map(\.title) == ["带伞", "开会"])
    #expect(items.map(\.kind) == [.reminder, .reminder])
    #expect(try await due.takeDue().isEmpty)
  }
}
