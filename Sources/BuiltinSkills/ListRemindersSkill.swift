public import Foundation
public import Skills

/// Says which reminders are set (`reminder.list`): "明天有什么提醒", "any alarms for tomorrow?".
public struct ListRemindersSkill: Skill {
  /// The slots `reminder.list` fills.
  public struct Input: Decodable, Sendable {
    /// The day asked about (`2026-12-01`); absent means every upcoming reminder.
    public var date: String?
    /// What the reminders are about, when the user said.
    public var text: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The reminders found.
  public struct Output: Encodable, Sendable, Equatable {
    /// The upcoming reminders asked about, soonest first.
    public var reminders: [ReminderItem]
    /// A sentence in the user's language.
    public var message: String
  }

  public var intentID: String { "reminder.list" }
  public var displayName: String { "List reminders" }
  let store: ReminderStore
  let wallClock: WallClock
  let timeZone: TimeZone

  /// Creates the skill over a store; days are read in `timeZone`.
  public init(store: ReminderStore, wallClock: WallClock = .system, timeZone: TimeZone = .current) {
    self.store = store
    self.wallClock = wallClock
    self.timeZone = timeZone
  }

  public func perform(_ input: Input) async throws -> Output {
    let lang = input.lang ?? .en
    let now = wallClock.now
    var reminders = try await store.upcoming()
    var scope = ""
    if let day = input.date, !day.isEmpty {
      let interval = try Wording.day(ofSlot: day, zone: timeZone)
      reminders = reminders.filter { interval.contains($0.fireDate) && $0.fireDate < interval.end }
      scope = Wording.day(interval.start, now: now, zone: timeZone, lang)
    }
    if let words = input.text, !ReminderWords.subject(words).isEmpty {
      reminders = reminders.filter { $0.matches(words) }
    }
    let items = reminders.map { ReminderItem($0, zone: timeZone) }
    let lines = reminders.map { reminder in
      let time =
        scope.isEmpty
        ? Wording.dayAndTime(reminder.fireDate, now: now, zone: timeZone, lang)
        : Wording.clock(reminder.fireDate, zone: timeZone)
      return "\(time) \(reminder.title)"
    }.joined(separator: lang.say("；", "; "))
    let message: String
    switch (reminders.count, scope.isEmpty) {
    case (0, true): message = Wording.noUpcomingReminders(lang)
    case (0, false): message = lang.say("\(scope)没有提醒", "no reminders for \(scope)")
    case (let count, true):
      message = lang.say(
        "有\(count)个提醒：\(lines)", "\(count) upcoming reminder\(count == 1 ? "" : "s"): \(lines)")
    case (let count, false):
      message = lang.say(
        "\(scope)有\(count)个提醒：\(lines)",
        "\(count) reminder\(count == 1 ? "" : "s") for \(scope): \(lines)")
    }
    return Output(reminders: items, message: message)
  }
}
