public import Foundation
public import Skills

/// The built-in skills, wired to their stores in the data directory.
public enum Builtins {
  /// The intents the built-in skills handle.
  public static let intentIDs = [
    "memo.create", "memo.delete", "memo.list", "reminder.cancel", "reminder.create",
    "reminder.list", "timer.adjust", "timer.cancel", "timer.pause", "timer.resume", "timer.start",
    "timer.status",
  ]

  /// Creates every built-in skill, with stores under `dataDirectory`.
  ///
  /// Stores record problems (a corrupt file set aside) in `problems`.
  public static func makeSkills(
    dataDirectory: URL, wallClock: WallClock = .system, timeZone: TimeZone = .current,
    problems: ProblemLog? = nil
  ) -> [AnySkill] {
    let timers = TimerStore(directory: dataDirectory, wallClock: wallClock, problems: problems)
    let reminders = ReminderStore(
      directory: dataDirectory, wallClock: wallClock, problems: problems)
    let memos = MemoStore(directory: dataDirectory, wallClock: wallClock, problems: problems)
    var skills = [
      AnySkill(StartTimerSkill(store: timers, timeZone: timeZone)),
      AnySkill(CancelTimerSkill(store: timers)),
      AnySkill(CreateReminderSkill(store: reminders, wallClock: wallClock, timeZone: timeZone)),
      AnySkill(ListRemindersSkill(store: reminders, wallClock: wallClock, timeZone: timeZone)),
      AnySkill(CancelReminderSkill(store: reminders, wallClock: wallClock, timeZone: timeZone)),
      AnySkill(CreateMemoSkill(store: memos, timeZone: timeZone)),
      AnySkill(ListMemosSkill(store: memos, wallClock: wallClock, timeZone: timeZone)),
      AnySkill(DeleteMemoSkill(store: memos, timeZone: timeZone)),
    ]
    for action in TimerControlSkill.Action.allCases {
      skills.append(
        AnySkill(
          TimerControlSkill(action, store: timers, wallClock: wallClock, timeZone: timeZone)))
    }
    return skills
  }
}
