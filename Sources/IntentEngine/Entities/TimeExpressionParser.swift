/// Reads durations, clock times, days and their combinations from entity tokens.
///
/// Parsing is separate from resolution: the parser says what was said ("八点", "next Friday"),
/// `DateTimeResolver` says which instant that is.
struct TimeExpressionParser {
  let tokens: [EntityToken]
  let numbers: [NumberSpan]
  let scalars: [Unicode.Scalar]

  // MARK: Token access

  @inline(__always)
  func word(_ t: Int) -> LexiconWord? {
    guard t < tokens.count, case .word(let word) = tokens[t].kind else { return nil }
    return word
  }

  @inline(__always)
  func number(_ t: Int) -> NumberSpan? {
    guard t < tokens.count, case .number(let index) = tokens[t].kind else { return nil }
    return numbers[index]
  }

  /// A plain integer (not a range, not a decimal) at token `t`.
  func integer(_ t: Int) -> Int? {
    guard let n = number(t), !n.isRange else { return nil }
    return EntityTokenizer.exactInt(n.value)
  }

  // MARK: Durations

  /// A duration: one or more number–unit components, largest unit first.
  struct Duration {
    var seconds: Double
    /// One past the last token.
    var end: Int
    var notes: [String]
  }

  /// The duration starting at token `t`: 三分钟, 一个半小时, 两分半钟, 1h30m, "an hour and a half".
  func duration(at t: Int) -> Duration? {
    var result = Duration(seconds: 0, end: t, notes: [])
    var previousUnit = Double.infinity
    var k = t
    while let component = durationComponent(at: k, isContinuing: result.end > t) {
      guard component.unitSeconds < previousUnit else { break }
      result.seconds += component.seconds
      result.end = component.end
      if let note = component.note { result.notes.append(note) }
      previousUnit = component.unitSeconds
      k = component.end
      if word(k) == .and, durationComponent(at: k + 1, isContinuing: true) != nil { k += 1 }
    }
    guard result.end > t else { return nil }
    if let rest = spokenRemainder(at: result.end, after: previousUnit) {
      result.seconds += rest.seconds
      result.end = rest.end
    }
    return result
  }

  /// The unnamed smaller part of a spoken length: "an hour twenty", "an hour and forty five",
  /// "three minutes thirty", "an hour and a quarter" — minutes after hours, seconds after minutes.
  private func spokenRemainder(at k: Int, after unit: Double) -> (seconds: Double, end: Int)? {
    guard unit == 3600 || unit == 60 else { return nil }
    let j = word(k) == .and ? k + 1 : k
    if unit == 3600, word(j) == .article, word(j + 1) == .quarter {
      return (900, j + 2)
    }
    guard let n = number(j), !n.isRange, n.range.count <= 2, let value = integer(j),
      (1..<60).contains(value), number(j + 1) == nil
    else { return nil }
    // A number followed by a unit or a date word is something else ("5号", "2个").
    switch word(j + 1) {
    case nil, .after, .connector, .and, .forWord, .on: return (Double(value) * unit / 60, j + 1)
    default: return nil
    }
  }

  private struct Component {
    var seconds: Double
    var unitSeconds: Double
    var end: Int
    var note: String?
  }

  private func durationComponent(at k: Int, isContinuing: Bool) -> Component? {
    // 半小时, 半个小时, "half an hour".
    if word(k) == .half {
      var j = k + 1
      if word(j) == .measure || word(j) == .article { j += 1 }
      guard case .unit(let unit) = word(j) else { return nil }
      return Component(seconds: unit.seconds / 2, unitSeconds: unit.seconds, end: j + 1)
    }
    // "a quarter of an hour".
    if case .durationWord(let seconds) = word(k) {
      return Component(seconds: seconds, unitSeconds: seconds, end: k + 1)
    }
    // "hour and a half timer": the article may be left out before a unit and a half.
    if !isContinuing, case .unit(let unit) = word(k), word(k + 1) == .andAHalf {
      return Component(seconds: unit.seconds * 1.5, unitSeconds: unit.seconds, end: k + 2)
    }
    // "an hour", "a minute", "an hour and a half".
    if word(k) == .article, case .unit(let unit) = word(k + 1) {
      if word(k + 2) == .andAHalf {
        return Component(seconds: unit.seconds * 1.5, unitSeconds: unit.seconds, end: k + 3)
      }
      return Component(seconds: unit.seconds, unitSeconds: unit.seconds, end: k + 2)
    }
    guard let n = number(k), n.value.isFinite else { return nil }
    var value = n.resolvedValue
    var note: String?
    if let upper = n.upperBound {
      note =
        "range \(NumeralReader.render(n.value))–\(NumeralReader.render(upper)) resolved to upper bound \(NumeralReader.render(upper))"
    }
    var j = k + 1
    var half = false
    if word(j) == .andAHalf {
      half = true
      j += 1
    }
    if word(j) == .measure { j += 1 }
    if !half, word(j) == .half {
      half = true
      j += 1
    }
    let unit: TimeUnit
    switch word(j) {
    case .unit(let u):
      unit = u
      j += 1
    case .minuteMark:
      let followsHalf = word(j + 1) == .half
      let followsSeconds = number(j + 1) != nil && word(j + 2) == .unit(.second)
      guard isContinuing || followsHalf || followsSeconds else { return nil }
      unit = .minute
      j += 1
    case .quarter where !half:
      j += 1
      if word(j) == .zhong { j += 1 }
      return Component(seconds: value * 900, unitSeconds: 900, end: j, note: note)
    default:
      return nil
    }
    if !half, word(j) == .half, tokens[j].isAttached {
      half = true
      j += 1
      if unit == .minute, word(j) == .zhong { j += 1 }
    } else if !half, word(j) == .andAHalf {
      half = true
      j += 1
    }
    if half { value += 0.5 }
    if unit == .month || unit == .year {
      let days = unit == .month ? 30 : 365
      note = [note, "a \(unit == .month ? "month" : "year") counted as \(days) days"]
        .compactMap { $0 }.joined(separator: "; ")
    }
    return Component(seconds: value * unit.seconds, unitSeconds: unit.seconds, end: j, note: note)
  }

  // MARK: Clock times

  /// A clock time as said, before am/pm and day are resolved.
  struct Clock {
    var hour: Int
    var minute: Int
    var isValid: Bool
    /// True for pm, false for am, nil when not said.
    var isPM: Bool?
    var end: Int
    /// Written with a zero-padded hour (`06:00`): a 24-hour time, never moved to the afternoon.
    var isTwentyFourHour = false
  }

  /// The clock time at token `t`: 八点, 8点半, 七点一刻, 8:10, 8am, 5 pm, "half past 7", "at 7".
  func clock(at t: Int, afterAt: Bool) -> Clock? {
    guard t < tokens.count else { return nil }
    if case .clock(let h, let m, let valid, let isTwentyFourHour) = tokens[t].kind {
      var clock = withMeridiem(Clock(hour: h, minute: m, isValid: valid, end: t + 1))
      clock.isTwentyFourHour = isTwentyFourHour && clock.isPM == nil
      return clock
    }
    // 差五分八点 / 差一刻八点: minutes before the hour, said first.
    if word(t) == .minutesTo, let (before, next) = minutesBefore(at: t + 1), let h = integer(next),
      word(next + 1) == .clockMark
    {
      return beforeHour(h, minutes: before, end: next + 2)
    }
    // "at 5 to 8", "at 10 past 8": minutes and the hour, after "at" only ("at 5 to call mom" is
    // no time).
    if afterAt, let m = integer(t), (1...30).contains(m), let h = integer(t + 2),
      (1...12).contains(h),
      let relation = word(t + 1), relation == .minutesTo || relation == .minutesPast
    {
      let clock =
        relation == .minutesPast
        ? Clock(hour: h, minute: m, isValid: true, end: t + 3)
        : beforeHour(h, minutes: m, end: t + 3)
      var result = withMeridiem(clock)
      if word(result.end) == .oclock { result.end += 1 }
      return result
    }
    if case .pastHour(let delta) = word(t), let h = integer(t + 1) {
      let clock =
        delta > 0
        ? Clock(hour: h, minute: delta, isValid: h <= 12, end: t + 2)
        : Clock(
          hour: h == 0 ? 23 : h - 1, minute: 60 + delta, isValid: h >= 1 && h <= 12, end: t + 2)
      var result = withMeridiem(clock)
      if word(result.end) == .oclock { result.end += 1 }
      return result
    }
    // "half eight": half past the hour, as British and Irish English say it; after "at", or
    // before am/pm or a day ("half seven tomorrow"), since "half 8" alone may be a quantity.
    if word(t) == .half, let h = integer(t + 1), (1...12).contains(h),
      let written = number(t + 1), written.range.count <= 2
    {
      let clock = Clock(hour: h, minute: 30, isValid: true, end: t + 2)
      if case .meridiem = word(t + 2) { return withMeridiem(clock) }
      if afterAt || namesDay(word(t + 2)) { return clock }
    }
    guard let n = number(t), !n.isRange, n.range.count <= 3, let h = integer(t) else { return nil }
    var j = t + 1
    if word(j) == .clockMark {
      j += 1
      var minute = 0
      if word(j) == .half {
        minute = 30
        j += 1
      } else if word(j) == .sharp {
        j += 1
      } else if let m = integer(j) {
        if word(j + 1) == .quarter {
          minute = m * 15
          j += 2
        } else if word(j + 1) == .minuteMark || !(word(j + 1).map(isDurationUnit) ?? false) {
          minute = m
          j += 1
          if word(j) == .minuteMark { j += 1 }
        }
      }
      if word(j) == .zhong { j += 1 }
      // 八点差五分, 十点差一刻: minutes before the hour, said after it.
      if minute == 0, word(j) == .minutesTo, let (before, next) = minutesBefore(at: j + 1) {
        return beforeHour(h, minutes: before, end: next)
      }
      let valid = h <= 24 && minute <= 59 && !(h == 24 && minute > 0)
      return withMeridiem(Clock(hour: h, minute: minute, isValid: valid, end: j))
    }
    // Spoken hour and minutes: "at seven thirty", "7 45 pm" (but not "at 7 30 minutes").
    if (1...12).contains(h), let m = integer(j), (10...59).contains(m),
      let written = number(j), written.range.count == 2,
      !(word(j + 1).map(isDurationUnit) ?? false)
    {
      let clock = Clock(hour: h, minute: m, isValid: true, end: j + 1)
      if case .meridiem = word(j + 1) { return withMeridiem(clock) }
      // "six thirty tonight", "seven fifteen tomorrow morning": the day names the time, said
      // after it or right before it ("alarm tomorrow 6 45").
      if afterAt || namesDay(word(j + 1)) || (t > 0 && namesDay(word(t - 1))) { return clock }
    }
    if case .meridiem(let pm) = word(j) {
      return Clock(hour: h, minute: 0, isValid: (1...12).contains(h), isPM: pm, end: j + 1)
    }
    if word(j) == .oclock {
      return withMeridiem(Clock(hour: h, minute: 0, isValid: h <= 12, end: j + 1))
    }
    if afterAt, h <= 24, n.range.count <= 2, !(word(j).map(isDurationUnit) ?? false) {
      return Clock(hour: h, minute: 0, isValid: true, end: j)
    }
    // "4 in the afternoon", "7 tonight", "6 tomorrow morning": the part of a day said right after
    // places the hour, as it does after spoken minutes ("six thirty tonight").
    if (1...12).contains(h), n.range.count <= 2, startsPartOfDay(at: j) {
      return Clock(hour: h, minute: 0, isValid: true, end: j)
    }
    return nil
  }

  /// Whether token `t` opens the part of a day, today's or one to come, said after a bare hour:
  /// "in the afternoon", "tonight", "tomorrow morning".
  private func startsPartOfDay(at t: Int) -> Bool {
    switch word(t) {
    case .connector:
      guard case .part = word(t + 1) else { return false }
      return true
    case .dayAndPart(let day, _): return day >= 0
    case .dayOffset(let day):
      guard day >= 0, case .part = word(t + 1) else { return false }
      return true
    default: return false
    }
  }

  /// Minutes said before an hour at token `t`: 五分, 五分钟, 一刻, 5; and the token after them.
  private func minutesBefore(at t: Int) -> (minutes: Int, next: Int)? {
    guard let m = integer(t) else { return nil }
    if word(t + 1) == .quarter { return m >= 1 && m <= 3 ? (m * 15, t + 2) : nil }
    guard (1...59).contains(m) else { return nil }
    if word(t + 1) == .minuteMark { return (m, t + 2) }
    if word(t + 1) == .unit(.minute) { return (m, t + 2) }
    return (m, t + 1)
  }

  /// The clock `minutes` before hour `h` (差五分八点 is 7:55), with the meridiem said after it.
  private func beforeHour(_ h: Int, minutes: Int, end: Int) -> Clock {
    let clock = Clock(
      hour: h == 0 ? 23 : h - 1, minute: 60 - minutes, isValid: h >= 1 && h <= 24, end: end)
    return withMeridiem(clock)
  }

  /// Whether `word` names a day or a part of one: said beside a bare clock, it places the clock.
  private func namesDay(_ word: LexiconWord?) -> Bool {
    switch word {
    case .dayAndPart, .part, .dayOffset, .weekday: true
    default: false
    }
  }

  private func isDurationUnit(_ word: LexiconWord) -> Bool {
    switch word {
    case .unit, .minuteMark, .measure, .half, .quarter, .andAHalf: true
    default: false
    }
  }

  private func withMeridiem(_ clock: Clock) -> Clock {
    guard case .meridiem(let pm) = word(clock.end) else { return clock }
    var result = clock
    result.isPM = pm
    result.end += 1
    if !(1...12).contains(clock.hour) { result.isValid = false }
    return result
  }

  // MARK: Days

  /// A day as said.
  enum Day: Equatable {
    case offset(Int)
    case weekday(Int, week: Int?)
    case weekend(week: Int?)
    case date(year: Int?, month: Int, day: Int)
    case dayOfMonth(Int, monthOffset: Int)
    case monthEnd(Int)
    case weekRef(Int)
    case monthRef(Int)
  }

  struct DayMatch {
    var day: Day
    var part: DayPart?
    var end: Int
  }

  /// The day at token `t`: 明天, 明早, 周五, 下周三, 12月25日, 下个月3号, 月底, "next Friday", "Dec 25th".
  func day(at t: Int) -> DayMatch? {
    guard t < tokens.count else { return nil }
    if case .date(let y, let m, let d) = tokens[t].kind {
      return DayMatch(day: .date(year: y, month: m, day: d), end: t + 1)
    }
    switch word(t) {
    case .dayOffset(let n): return DayMatch(day: .offset(n), end: t + 1)
    case .dayAndPart(let n, let part): return DayMatch(day: .offset(n), part: part, end: t + 1)
    case .weekday(let d, let week):
      // "tuesday next week"
      if week == nil, case .weekRef(let n) = word(t + 1) {
        return DayMatch(day: .weekday(d, week: n), end: t + 2)
      }
      return DayMatch(day: .weekday(d, week: week), end: t + 1)
    case .weekend(let week): return DayMatch(day: .weekend(week: week), end: t + 1)
    case .monthEnd(let n): return DayMatch(day: .monthEnd(n), end: t + 1)
    case .holiday(let month, let day):
      return DayMatch(day: .date(year: nil, month: month, day: day), end: t + 1)
    case .weekRef(let n):
      // "next week tuesday", 下周的周二
      let next = word(t + 1) == .connector ? t + 2 : t + 1
      if case .weekday(let d, nil) = word(next) {
        return DayMatch(day: .weekday(d, week: n), end: next + 1)
      }
      return DayMatch(day: .weekRef(n), end: t + 1)
    case .monthRef(let n):
      if let d = integer(t + 1), word(t + 2) == .dayMark {
        return DayMatch(day: .dayOfMonth(d, monthOffset: n), end: t + 3)
      }
      return DayMatch(day: .monthRef(n), end: t + 1)
    case .modifier(let n):
      switch word(t + 1) {
      case .weekday(let d, nil): return DayMatch(day: .weekday(d, week: n), end: t + 2)
      case .weekend(nil): return DayMatch(day: .weekend(week: n), end: t + 2)
      default: return nil
      }
    case .monthName(let m):
      // "December fourth"
      if case .ordinalWord(let d) = word(t + 1) {
        return DayMatch(day: .date(year: nil, month: m, day: d), end: t + 2)
      }
      guard let d = integer(t + 1) else { return nil }
      var end = t + 2
      if word(end) == .ordinal { end += 1 }
      var year: Int?
      if let y = integer(end), y >= 1000 {
        year = y
        end += 1
      }
      return DayMatch(day: .date(year: year, month: m, day: d), end: end)
    case .connector:
      // "the 25th"
      if let d = integer(t + 1), word(t + 2) == .ordinal { return dayAfterOrdinal(d, at: t + 3) }
      // "the fourth of December": an ordinal word is a day only before a month's name.
      if case .ordinalWord(let d) = word(t + 1) { return month(after: d, at: t + 2) }
      return nil
    case .ordinalWord(let d):
      return month(after: d, at: t + 1)
    default:
      break
    }
    guard let first = integer(t) else { return nil }
    var k = t + 1
    var year: Int?
    if word(k) == .yearMark, first >= 1000, integer(k + 1) != nil, word(k + 2) == .monthMark {
      year = first
      k += 1
    }
    let leading = year == nil ? first : (integer(k) ?? 0)
    if year != nil { k += 1 }
    if word(k) == .monthMark, let d = integer(k + 1),
      word(k + 2) == .dayMark || tokens[k + 1].isAttached
    {
      var end = k + 2
      if word(end) == .dayMark { end += 1 }
      return DayMatch(day: .date(year: year, month: leading, day: d), end: end)
    }
    guard year == nil else { return nil }
    if word(k) == .dayMark, tokens[k].isAttached, (1...31).contains(first) {
      return DayMatch(day: .dayOfMonth(first, monthOffset: 0), end: k + 1)
    }
    if word(k) == .ordinal { return dayAfterOrdinal(first, at: k + 1) }
    if case .monthName(let m) = word(k) {
      if let y = integer(k + 1), y >= 1000 {
        return DayMatch(day: .date(year: y, month: m, day: first), end: k + 2)
      }
      return DayMatch(day: .date(year: nil, month: m, day: first), end: k + 1)
    }
    return nil
  }

  /// Day `d` of the month named at `k`, after an optional "of": "(4th) of December", or nil.
  private func month(after d: Int, at k: Int) -> DayMatch? {
    var j = k
    if word(j) == .connector, case .monthName = word(j + 1) { j += 1 }
    guard case .monthName(let m) = word(j) else { return nil }
    return DayMatch(day: .date(year: nil, month: m, day: d), end: j + 1)
  }

  /// "25th December", "25th of December" or a bare "25th".
  private func dayAfterOrdinal(_ d: Int, at k: Int) -> DayMatch {
    month(after: d, at: k) ?? DayMatch(day: .dayOfMonth(d, monthOffset: 0), end: k)
  }

  // MARK: Combinations

  /// A datetime as said: any of a day, a part of the day and a clock time, in any order.
  struct Frame {
    var day: Day?
    var part: DayPart?
    var clock: Clock?
    /// The first and one past the last token.
    var start: Int
    var end: Int
  }

  /// The combination starting at token `t`: 明天早上八点, 下周三晚上7点半, "tomorrow at 8am".
  func frame(at t: Int) -> Frame? {
    var frame = Frame(start: t, end: t)
    var k = t
    while k < tokens.count {
      var j = k
      var afterAt = false
      while let w = word(j),
        w == .at || w == .on || w == .connector || (w == .forWord && isAfterAlarm(j))
      {
        if w == .at || w == .forWord { afterAt = true }
        j += 1
      }
      if frame.day == nil, let match = day(at: j) {
        if match.part != nil, frame.part != nil { break }
        frame.day = match.day
        if let part = match.part { frame.part = part }
        k = match.end
      } else if frame.part == nil, case .part(let part) = word(j) {
        frame.part = part
        k = j + 1
      } else if frame.clock == nil, let clock = clock(at: j, afterAt: afterAt) {
        frame.clock = clock
        k = clock.end
      } else {
        break
      }
      if frame.end == t { frame.start = latinConnectorStart(before: j, notBefore: t) }
      frame.end = k
    }
    return frame.end > t ? frame : nil
  }

  /// Whether token `j` ("for") follows the word "alarm", as in "set an alarm for 7".
  private func isAfterAlarm(_ j: Int) -> Bool {
    guard j > 0, case .other = tokens[j - 1].kind else { return false }
    let range = tokens[j - 1].range
    guard range.count >= 5 else { return false }
    let tail = Array(scalars[(range.upperBound - 5)..<range.upperBound])
    return tail == Array("alarm".unicodeScalars)
  }

  /// The first of the Latin connectors (at, on, the, in the) right before token `j`.
  private func latinConnectorStart(before j: Int, notBefore t: Int) -> Int {
    var start = j
    while start > t, let w = word(start - 1),
      w == .at || w == .on || w == .connector || (w == .forWord && isAfterAlarm(start - 1))
    {
      start -= 1
    }
    return start
  }
}
