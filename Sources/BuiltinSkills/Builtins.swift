public import Foundation
public import Skills

/// The built-in skills, wired to their stores in the data directory.
public enum Builtins {
  /// The intents the built-in skills handle today; reminders, memos, weather and health come later.
  public static let intentIDs = ["timer.cancel", "timer.start"]

  /// Creates every built-in skill, with stores under `dataDirectory`.
  ///
  /// Stores record problems (a corrupt file set aside) in `problems`.
  public static func makeSkills(
    dataDirectory: URL, wallClock: WallClock = .system, timeZone: TimeZone = .current,
    problems: ProblemLog? = nil
  ) -> [AnySkill] {
    let timers = TimerStore(directory: dataDirectory, wallClock: wallClock, problems: problems)
    return [
      AnySkill(StartTimerSkill(store: timers, timeZone: timeZone)),
      AnySkill(CancelTimerSkill(store: timers)),
    ]
  }
}
