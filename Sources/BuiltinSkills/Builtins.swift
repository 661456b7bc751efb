public import Foundation
public import Skills

/// The built-in skills, wired to their stores in the data directory.
public enum Builtins {
  /// The intents the built-in skills handle.
  public static let intentIDs = [
    "health.query", "memo.create", "memo.delete", "memo.list", "reminder.cancel", "reminder.create",
    "reminder.list", "timer.adjust", "timer.cancel", "timer.pause", "timer.resume", "timer.start",
    "timer.status", "weather.query",
  ]

  /// Creates every built-in skill, with stores under `dataDirectory`.
  ///
  /// Stores record problems (a corrupt file set aside) in `problems`. `environment` gives the
  /// weather service's base URLs (`INTENT_GEOCODING_URL`, `INTENT_WEATHER_URL`), the home
  /// location (`INTENT_HOME_LOCATION`) and the health export (`INTENT_HEALTH_EXPORT`).
  public static func makeSkills(
    dataDirectory: URL, wallClock: WallClock = .system, timeZone: TimeZone = .current,
    problems: ProblemLog? = nil, environment: [String: String] = [:]
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
    let client = OpenMeteoClient(
      geocodingURL: url(environment["INTENT_GEOCODING_URL"]),
      weatherURL: url(environment["INTENT_WEATHER_URL"]))
    skills.append(
      AnySkill(
        WeatherSkill(
          client: client, homeLocation: environment["INTENT_HOME_LOCATION"],
          wallClock: wallClock, timeZone: timeZone)))
    let export = environment["INTENT_HEALTH_EXPORT"].flatMap {
      $0.isEmpty ? nil : URL(fileURLWithPath: $0)
    }
    skills.append(
      AnySkill(HealthSkill(exportURL: export, wallClock: wallClock, timeZone: timeZone)))
    for action in TimerControlSkill.Action.allCases {
      skills.append(
        AnySkill(
          TimerControlSkill(action, store: timers, wallClock: wallClock, timeZone: timeZone)))
    }
    return skills
  }

  /// A base URL from the environment; empty or unparsable values mean the default.
  static func url(_ text: String?) -> URL? {
    guard let text, !text.isEmpty, let url = URL(string: text), url.scheme != nil else {
      return nil
    }
    return url
  }
}
