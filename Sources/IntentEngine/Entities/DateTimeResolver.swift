import Foundation

/// Turns a datetime as said into an instant, following the shared time rules.
///
/// The rules (also pinned by `Fixtures/entities`):
/// 1. Relative offsets ("三分钟后", "in 2 hours") are now + the duration, seconds kept.
/// 2. A clock time with no day and no part of day: hours 1–12 mean the next occurrence of h:mm or
///    (h+12):mm after now ("八点" at 09:00 is 20:00 today, "十点" at 09:00 is 10:00 today); hours 0
///    and 13–23 mean the next occurrence, today if still ahead, else tomorrow. A zero-padded hour
///    (`06:00`) is a 24-hour time and also means the next occurrence. With today named, an hour
///    1–11 already past means the evening one ("today at 5" at 09:00 is 17:00).
/// 3. A part of day fixes am/pm (see `DayPart.hour(for:)`); "8am" / "5pm" likewise. With no day
///    given and the time already past today, the time is tomorrow.
/// 4. A part of day with no clock time takes its default (`DayPart.defaultMinutes`).
/// 5. A day with no time is 09:00 of that day.
/// 6. 今天 0, 明天 +1, 后天 +2, 大后天 +3. A bare weekday is the next occurrence after today (the same
///    weekday means 7 days ahead); 这周X is that day of the current Monday-start week, 下周X of the
///    next week. 周末 is the Saturday of this week (next week's on a Sunday).
/// 7. 12月25日, 12/25, "December 25th": that date this year if not past, else next year; 月底 the last
///    day of this month; 下个月3号 the 3rd of next month; a bare 3号 this month if not past, else next
///    month. Invalid dates (2月30日) and times (25:99) resolve to nothing.
/// 8. Past-only references (昨天, 昨晚, 上周五, "last week") resolve to nothing: they give a
///    `period`, never a datetime.
struct DateTimeResolver {
  let context: ParseContext
  let calendar: Calendar
  let now: Date
  /// Today's calendar day and ISO weekday (Monday = 1).
  let today: (year: Int, month: Int, day: Int, weekday: Int)
  /// How many years before or after today a written year may lie ("2026年12月1日" is read,
  /// "3000年1月1日" is not).
  static let yearsAround = 100

  init(context: ParseContext) {
    self.context = context
    calendar = context.calendar
    now = context.now
    // Today's date is the day number of the local clock reading: no calendar call needed.
    let local = now.timeIntervalSince1970 + Double(context.timeZone.secondsFromGMT(for: now))
    let dayNumber = Int((local / 86_400).rounded(.down))
    let day = Self.civil(fromDayNumber: dayNumber)
    // 1970-01-01 was a Thursday (ISO weekday 4).
    today = (day.year, day.month, day.day, ((dayNumber % 7) + 10) % 7 + 1)
  }

  typealias Day = (year: Int, month: Int, day: Int)

  /// A resolved instant with its grain, window flag and explanation.
  struct Resolution {
    var value: DateTimeValue
    var note: String?
  }

  /// The instant `duration` seconds from now.
  func relative(seconds: Double) -> Resolution {
    Resolution(
      value: DateTimeValue(
        date: now.addingTimeInterval(seconds), timeZone: context.timeZone, grain: .second,
        isWindow: false))
  }

  /// The instant a frame names, or nil when it is invalid or lies only in the past.
  func resolve(_ frame: TimeExpressionParser.Frame, said: @autoclosure () -> String) -> Resolution?
  {
    if let clock = frame.clock, !clock.isValid { return nil }
    var notes: [String] = []
    var grain: TimeGrain = .day
    var day: Day?
    if let spec = frame.day {
      guard let (resolved, specGrain, note) = resolveDay(spec) else { return nil }
      day = resolved
      grain = specGrain
      if let note { notes.append(note) }
    }
    if let clock = frame.clock {
      var hour = clock.hour
      if let pm = clock.isPM {
        hour = pm ? (hour == 12 ? 12 : hour + 12) : (hour == 12 ? 0 : hour)
      } else if let part = frame.part {
        hour = part.hour(for: hour)
      }
      let minutes = hour * 60 + clock.minute
      if let day {
        guard let date = instant(day, minutes: minutes) else { return nil }
        // "today at 5" at 09:00 means 17:00: the morning hour has passed.
        if date <= now, clock.isPM == nil, frame.part == nil, !clock.isTwentyFourHour,
          (1...11).contains(hour), let evening = instant(day, minutes: minutes + 12 * 60),
          evening > now
        {
          return make(
            evening, grain: .minute, isWindow: false,
            notes + ["'\(said())' has passed today; read as \(Self.clockText(minutes + 12 * 60))"])
        }
        return make(date, grain: .minute, isWindow: false, notes)
      }
      if clock.isPM != nil || frame.part != nil || clock.isTwentyFourHour || hour == 0 || hour > 12
      {
        return nextOccurrence(
          minutes: minutes, said: said(), grain: .minute, isWindow: false, notes)
      }
      return bareClock(hour: hour, minute: clock.minute, said: said(), notes)
    }
    if let part = frame.part {
      if let day {
        guard let date = instant(day, minutes: part.defaultMinutes) else { return nil }
        return make(date, grain: .hour, isWindow: true, notes)
      }
      return nextOccurrence(
        minutes: part.defaultMinutes, said: said(), grain: .hour, isWindow: true, notes)
    }
    guard let day, let date = instant(day, minutes: 9 * 60) else { return nil }
    return make(date, grain: grain, isWindow: true, notes)
  }

  private func make(_ date: Date, grain: TimeGrain, isWindow: Bool, _ notes: [String]) -> Resolution
  {
    Resolution(
      value: DateTimeValue(
        date: date, timeZone: context.timeZone, grain: grain, isWindow: isWindow),
      note: notes.isEmpty ? nil : notes.joined(separator: "; "))
  }

  /// Today at `minutes` if still ahead, else tomorrow (time rules §2–3).
  private func nextOccurrence(
    minutes: Int, said: String, grain: TimeGrain, isWindow: Bool, _ notes: [String]
  ) -> Resolution? {
    guard let todayAt = instant((today.year, today.month, today.day), minutes: minutes) else {
      return nil
    }
    if todayAt > now { return make(todayAt, grain: grain, isWindow: isWindow, notes) }
    guard let tomorrow = shift((today.year, today.month, today.day), days: 1),
      let date = instant(tomorrow, minutes: minutes)
    else { return nil }
    return make(
      date, grain: grain, isWindow: isWindow,
      notes + ["'\(said)' has passed today; read as tomorrow \(Self.clockText(minutes))"])
  }

  /// A bare clock hour 1–12: the next of h:mm and (h+12):mm after now (time rules §2).
  private func bareClock(hour: Int, minute: Int, said: String, _ notes: [String]) -> Resolution? {
    let base: Day = (today.year, today.month, today.day)
    guard let tomorrow = shift(base, days: 1) else { return nil }
    let candidates: [(Day, Int)] = [
      (base, hour * 60 + minute), (base, (hour + 12) * 60 + minute), (tomorrow, hour * 60 + minute),
    ]
    for (index, (day, minutes)) in candidates.enumerated() {
      guard let date = instant(day, minutes: minutes), date > now else { continue }
      var notes = notes
      if index == 1 {
        notes.append(
          "'\(said)' after \(Self.clockText(hour * 60 + minute)) read as \(Self.clockText(minutes))"
        )
      } else if index == 2 {
        notes.append("'\(said)' has passed today; read as tomorrow \(Self.clockText(minutes))")
      }
      return make(date, grain: .minute, isWindow: false, notes)
    }
    return nil
  }

  static func clockText(_ minutes: Int) -> String {
    let m = minutes % (24 * 60)
    let h = m / 60
    let mm = m % 60
    return (h < 10 ? "0" : "") + String(h) + ":" + (mm < 10 ? "0" : "") + String(mm)
  }

  /// The calendar day a day spec names, its grain and a note; nil when invalid or past-only.
  private func resolveDay(_ spec: TimeExpressionParser.Day) -> (Day, TimeGrain, String?)? {
    let base: Day = (today.year, today.month, today.day)
    switch spec {
    case .offset(let n):
      guard n >= 0, let day = shift(base, days: n) else { return nil }
      return (day, .day, nil)
    case .weekday(let weekday, let week):
      let delta: Int
      var note: String?
      switch week {
      case nil:
        var d = (weekday - today.weekday + 7) % 7
        if d == 0 {
          d = 7
          note = "a bare weekday naming today means the same day next week"
        }
        delta = d
      case let offset?:
        guard offset >= 0 else { return nil }
        delta = (weekday - today.weekday) + 7 * offset
      }
      guard let day = shift(base, days: delta) else { return nil }
      return (day, .day, note)
    case .weekend(let week):
      let delta: Int
      if let week, week > 0 {
        delta = 6 - today.weekday + 7 * week
      } else {
        guard week ?? 0 >= 0 else { return nil }
        delta = today.weekday == 7 ? 6 : 6 - today.weekday
      }
      guard let day = shift(base, days: delta) else { return nil }
      return (day, .day, nil)
    case .date(let year, let month, let dayOfMonth):
      if let year {
        // A year far from today is a misreading or a joke, not a day to be reminded on.
        guard abs(year - today.year) <= Self.yearsAround, isValid((year, month, dayOfMonth))
        else { return nil }
        return ((year, month, dayOfMonth), .day, nil)
      }
      let thisYear: Day = (today.year, month, dayOfMonth)
      if isValid(thisYear), !isBefore(thisYear, base) { return (thisYear, .day, nil) }
      let nextYear: Day = (today.year + 1, month, dayOfMonth)
      guard isValid(nextYear) || isValid(thisYear) else { return nil }
      guard isValid(nextYear) else { return nil }
      return (nextYear, .day, "\(month)/\(dayOfMonth) has passed this year; read as next year's")
    case .dayOfMonth(let d, let monthOffset):
      guard monthOffset >= 0 else { return nil }
      guard let first = shiftMonths((today.year, today.month, 1), monthOffset) else { return nil }
      let candidate: Day = (first.year, first.month, d)
      if monthOffset > 0 { return isValid(candidate) ? (candidate, .day, nil) : nil }
      if isValid(candidate), !isBefore(candidate, base) { return (candidate, .day, nil) }
      guard let next = shiftMonths(first, 1), isValid((next.year, next.month, d)) else {
        return nil
      }
      return (
        (next.year, next.month, d), .day, "day \(d) has passed this month; read as next month's"
      )
    case .monthEnd(let n):
      guard n >= 0, let first = shiftMonths((today.year, today.month, 1), n + 1),
        let last = shift(first, days: -1)
      else { return nil }
      return (last, .day, nil)
    case .weekRef(let n):
      // "This week" is what is left of it, from today; a later week starts on its Monday.
      guard n >= 0, let day = n == 0 ? base : shift(base, days: 1 - today.weekday + 7 * n) else {
        return nil
      }
      return (day, .week, nil)
    case .monthRef(let n):
      guard n > 0, let first = shiftMonths((today.year, today.month, 1), n) else { return nil }
      return (first, .month, nil)
    }
  }

  // MARK: Calendar arithmetic

  private func isBefore(_ a: Day, _ b: Day) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }

  private func isValid(_ day: Day) -> Bool {
    guard (1...12).contains(day.month), day.year > 0, day.year < 10_000 else { return false }
    return (1...Self.daysInMonth(day.year, day.month)).contains(day.day)
  }

  /// The calendar day `days` after `day`.
  ///
  /// Days are zone-free Gregorian dates, so this is arithmetic on day numbers; only turning a day
  /// and time into an instant needs the zone.
  private func shift(_ day: Day, days: Int) -> Day? {
    guard isValid(day) else { return nil }
    let moved = Self.civil(fromDayNumber: Self.dayNumber(day) + days)
    guard moved.year > 0, moved.year < 10_000 else { return nil }
    return moved
  }

  static func daysInMonth(_ year: Int, _ month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 in the proleptic Gregorian calendar.
  static func dayNumber(_ day: Day) -> Int {
    let year = day.month <= 2 ? day.year - 1 : day.year
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (day.month + (day.month > 2 ? -3 : 9)) + 2) / 5 + day.day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The calendar day of a day number (see `dayNumber`).
  static func civil(fromDayNumber number: Int) -> Day {
    let z = number + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private func shiftMonths(_ day: Day, _ months: Int) -> Day? {
    let total = day.year * 12 + (day.month - 1) + months
    return (total / 12, total % 12 + 1, day.day)
  }

  /// The instant `minutes` after the start of `day` (1440 is the next day's 00:00).
  func instant(_ day: Day, minutes: Int) -> Date? {
    var day = day
    var minutes = minutes
    if minutes >= 24 * 60 {
      guard let next = shift(day, days: minutes / (24 * 60)) else { return nil }
      day = next
      minutes %= 24 * 60
    }
    return calendar.date(
      from: DateComponents(
        year: day.year, month: day.month, day: day.day, hour: minutes / 60, minute: minutes % 60))
  }
}
