public import Foundation
public import Skills

/// Sets a reminder (`reminder.create`): "明早8:10叫醒我", "remind me at 5pm to call mom".
public struct CreateReminderSkill: Skill {
  /// The slots `reminder.create` fills.
  public struct Input: Decodable, Sendable {
    /// When it fires, ISO 8601 with offset; absent when the user said no time.
    public var datetime: String?
    /// What it is about.
    public var text: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The reminder set, or the question to ask when the time is missing.
  public struct Output: Encodable, Sendable, Equatable {
    /// The reminder, when one was set.
    public var reminder: ReminderItem?
    /// Slots still needed (`datetime`), when nothing was set.
    public var missingSlots: [String]?
    /// The question for the user, when nothing was set.
    public var prompt: String?
    /// A sentence in the user's language.
    public var message: String

    enum CodingKeys: String, CodingKey {
      case reminder, prompt, message
      case missingSlots = "missing_slots"
    }
  }

  public var intentID: String { "reminder.create" }
  public var displayName: String { "Create reminder" }
  let store: ReminderStore
  let wallClock: WallClock
  let timeZone: TimeZone

  /// Creates the skill over a store; times are read and shown in `timeZone`.
  public init(store: ReminderStore, wallClock: WallClock = .system, timeZone: TimeZone = .current) {
    self.store = store
    self.wallClock = wallClock
    self.timeZone = timeZone
  }

  public func perform(_ input: Input) async throws -> Output {
    let lang = input.lang ?? .en
    let trimmed = input.text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    let title = trimmed.isEmpty ? lang.say("提醒", "reminder") : String(trimmed.prefix(200))
    guard let text = input.datetime, !text.isEmpty else {
      let prompt = lang.say("什么时候提醒你？", "When should I remind you?")
      return Output(reminder: nil, missingSlots: ["datetime"], prompt: prompt, message: prompt)
    }
    guard let fireDate = Wording.instant(fromISO8601: text) else {
      throw SkillError.invalidInput(
        "slot 'datetime' is '\(text)', not an ISO 8601 time such as '2026-12-01T07:00:00+08:00'")
    }
    let now = wallClock.now
    guard fireDate > now else {
      throw SkillError.invalidInput(
        "the time '\(text)' has already passed; say a later time for the reminder")
    }
    let reminder = try await store.add(title: title, at: fireDate)
    let when = Wording.dayAndTime(fireDate, now: now, zone: timeZone, lang)
    return Output(
      reminder: ReminderItem(reminder, zone: timeZone), missingSlots: nil, prompt: nil,
      message: lang.say("已设置提醒：\(when) \(title)", "Reminder set for \(when): \(title)"))
  }
}
