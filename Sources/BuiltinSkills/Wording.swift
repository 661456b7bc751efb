public import Foundation
public import Skills

/// How built-in skills word times, days and lengths in the user's language.
public enum Wording {
  /// A length: `3分钟`, `1小时30分钟` in Chinese; `3 min`, `1 h 30 min` in English.
  public static func duration(_ seconds: Double, _ lang: UserLanguage) -> String {
    guard lang == .zh else { return TimerFormatting.duration(seconds) }
    let total = seconds.isFinite ? Int(min(max(0, seconds), 1e12).rounded(.up)) : 0
    let hours = total / 3600
    let minutes = (total % 3600) / 60
    let rest = total % 60
    var text = ""
    if hours > 0 { text += "\(hours)小时" }
    if minutes > 0 { text += "\(minutes)分钟" }
    if rest > 0 || text.isEmpty { text += "\(rest)秒" }
    return text
  }

  /// A day relative to `now`: 今天 / 明天 / 昨天, `12月3日`; today, tomorrow, yesterday, `Dec 3`.
  public static func day(_ date: Date, now: Date, zone: TimeZone, _ lang: UserLanguage) -> String {
    let calendar = self.calendar(zone)
    let days =
      calendar.dateComponents(
        [.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: date)
      ).day ?? 0
    switch days {
    case 0: return lang.say("今天", "today")
    case 1: return lang.say("明天", "tomorrow")
    case -1: return lang.say("昨天", "yesterday")
    case 2: if lang == .zh { return "后天" }
    default: break
    }
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    let sameYear = calendar.component(.year, from: now) == parts.year
    if lang == .zh {
      return (sameYear ? "" : "\(parts.year ?? 0)年") + "\(parts.month ?? 0)月\(parts.day ?? 0)日"
    }
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
    return "\(month) \(parts.day ?? 0)" + (sameYear ? "" : ", \(parts.year ?? 0)")
  }

  /// A day and clock time: `明天 07:00`, `tomorrow 07:00`.
  public static func dayAndTime(_ date: Date, now: Date, zone: TimeZone, _ lang: UserLanguage)
    -> String
  {
    "\(day(date, now: now, zone: zone, lang)) \(clock(date, zone: zone))"
  }

  /// A clock time, `07:05`.
  public static func clock(_ date: Date, zone: TimeZone) -> String {
    let parts = calendar(zone).dateComponents([.hour, .minute], from: date)
    return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
  }

  /// When something happened, for "added Monday": the weekday within the last week, else the day.
  public static func weekdayOrDay(
    _ date: Date, now: Date, zone: TimeZone, _ lang: UserLanguage
  ) -> String {
    let calendar = self.calendar(zone)
    let days =
      calendar.dateComponents(
        [.day], from: calendar.startOfDay(for: date), to: calendar.startOfDay(for: now)
      ).day ?? 0
    guard days >= 2, days < 7 else { return day(date, now: now, zone: zone, lang) }
    let weekday = calendar.component(.weekday, from: date)
    let zh = ["周日", "周一", "周二", "周三", "周四", "周五", "周六"]
    let en = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    let index = max(0, min(6, weekday - 1))
    return lang.say(zh[index], en[index])
  }

  /// How old something is: `3小时前`, `3 hours ago`.
  public static func age(_ seconds: Double, _ lang: UserLanguage) -> String {
    let s = seconds.isFinite ? Int(min(max(0, seconds), 1e12)) : 0
    func unit(_ n: Int, _ zh: String, _ en: String) -> String {
      lang.say("\(n)\(zh)前", "\(n) \(en)\(n == 1 ? "" : "s") ago")
    }
    if s < 60 { return lang.say("刚刚", "just now") }
    if s < 3600 { return unit(s / 60, "分钟", "minute") }
    if s < 86400 { return unit(s / 3600, "小时", "hour") }
    return unit(s / 86400, "天", "day")
  }

  /// A Gregorian calendar in `zone`.
  public static func calendar(_ zone: TimeZone) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar
  }

  /// Parses an ISO 8601 instant with offset, as the engine renders `datetime` slots.
  public static func instant(fromISO8601 text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }

  /// The day a `date` slot names, in `zone`.
  ///
  /// - Throws: ``SkillError/invalidInput(_:)`` when the value is no ISO day.
  static func day(ofSlot text: String, zone: TimeZone) throws(SkillError) -> DateInterval {
    guard let interval = dayInterval(fromISODay: text, zone: zone) else {
      throw .invalidInput("slot 'date' is '\(text)', not a day such as '2026-12-01'")
    }
    return interval
  }

  /// Said when no reminder is waiting to go off.
  static func noUpcomingReminders(_ lang: UserLanguage) -> String {
    lang.say("没有待响的提醒", "no upcoming reminders")
  }

  /// The start and end of an ISO day (`2026-12-01`) in `zone`.
  public static func dayInterval(fromISODay text: String, zone: TimeZone) -> DateInterval? {
    let parts = text.split(separator: "-")
    guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
      let day = Int(parts[2]), (1...9999).contains(year), (1...12).contains(month),
      (1...31).contains(day)
    else { return nil }
    let calendar = self.calendar(zone)
    guard
      let start = calendar.date(
        from: DateComponents(timeZone: zone, year: year, month: month, day: day)),
      calendar.component(.day, from: start) == day,
      let end = calendar.date(byAdding: .day, value: 1, to: start)
    else { return nil }
    return DateInterval(start: start, end: end)
  }

  /// The ISO day (`2026-12-01`) of `date` in `zone`.
  public static func isoDay(_ date: Date, zone: TimeZone) -> String {
    let parts = calendar(zone).dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }
}
