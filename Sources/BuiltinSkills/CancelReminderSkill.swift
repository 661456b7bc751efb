public import Foundation
public import Skills

/// Deletes reminders (`reminder.cancel`) by title, time, or all of a day, and says what went.
public struct CancelReminderSkill: Skill {
  /// The slots `reminder.cancel` fills.
  public struct Input: Decodable, Sendable {
    /// The reminder's time, ISO 8601 with offset.
    public var datetime: String?
    /// The reminder's day (`2026-12-01`).
    public var date: String?
    /// What it is about.
    public var text: String?
    /// `all` when the user meant every reminder (of the day, when one is given).
    public var scope: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The reminders removed.
  public struct Output: Encodable, Sendable, Equatable {
    /// The reminders that were deleted, soonest first.
    public var removed: [ReminderItem]
    /// A sentence in the user's language.
    public var message: String
  }

  public var intentID: String { "reminder.cancel" }
  public var displayName: String { "Cancel reminder" }
  let store: ReminderStore
  let wallClock: WallClock
  let timeZone: TimeZone

  /// Creates the skill over a store; times are read in `timeZone`.
  public init(store: ReminderStore, wallClock: WallClock = .system, timeZone: TimeZone = .current) {
    self.store = store
    self.wallClock = wallClock
    self.timeZone = timeZone
  }

  public func perform(_ input: Input) async throws -> Output {
    let lang = input.lang ?? .en
    let now = wallClock.now
    var tests: [(Reminder) -> Bool] = []
    if let text = input.datetime, !text.isEmpty {
      guard let date = Wording.instant(fromISO8601: text) else {
        throw SkillError.invalidInput("slot 'datetime' is '\(text)', not an ISO 8601 time")
      }
      // The same minute: the engine renders times to the second, reminders keep what was said.
      tests.append { abs($0.fireDate.timeIntervalSince(date)) < 60 }
    }
    if let day = input.date, !day.isEmpty {
      let interval = try Wording.day(ofSlot: day, zone: timeZone)
      tests.append { $0.fireDate >= interval.start && $0.fireDate < interval.end }
    }
    let isAll = input.scope?.lowercased() == "all"
    if let words = input.text, !ReminderWords.subject(words).isEmpty {
      tests.append { $0.matches(words) }
    }
    if tests.isEmpty, !isAll {
      let upcoming = try await store.upcoming()
      guard upcoming.count == 1 else {
        return Output(
          removed: [],
          message: upcoming.isEmpty
            ? Wording.noUpcomingReminders(lang)
            : lang.say(
              "你有\(upcoming.count)个提醒，要取消哪一个？",
              "you have \(upcoming.count) reminders; which one should I cancel?"))
      }
      tests.append { _ in true }
    }
    let checks = tests
    let removed = try await store.remove { reminder in checks.allSatisfy { $0(reminder) } }
    let items = removed.map { ReminderItem($0, zone: timeZone) }
    guard !removed.isEmpty else {
      let anyLeft = try await !store.upcoming().isEmpty
      return Output(
        removed: [],
        message: anyLeft
          ? lang.say("没有找到要取消的提醒", "no reminder matched; nothing was cancelled")
          : Wording.noUpcomingReminders(lang))
    }
    let lines = removed.map {
      "\(Wording.dayAndTime($0.fireDate, now: now, zone: timeZone, lang)) \($0.title)"
    }.joined(separator: lang.say("；", "; "))
    return Output(
      removed: items,
      message: lang.say(
        "已取消\(removed.count)个提醒：\(lines)",
        "cancelled \(removed.count) reminder\(removed.count == 1 ? "" : "s"): \(lines)"))
  }
}
