public import Foundation
public import Skills

/// Answers questions about the user's own steps, heart rate and sleep (`health.query`) from an
/// Apple Health export.
///
/// Days and nights are the user's, in `timeZone`. Steps are summed per day; when two sources
/// (a phone and a watch) both counted a day, the larger count stands for the day, since the
/// export keeps both and adding them would count the same walk twice. Sleep is the union of the
/// asleep intervals of a night (noon to noon), so overlapping sources are not counted twice.
public struct HealthSkill: Skill {
  /// The slots `health.query` fills.
  public struct Input: Decodable, Sendable {
    /// `steps`, `heart_rate` or `sleep`.
    public var metric: String?
    /// `today`, `yesterday`, `this_week`, `last_week`, `this_month` or `last_month`; absent means today
    /// (last night for sleep).
    public var period: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The figures for the asked metric and period.
  public struct Output: Encodable, Sendable, Equatable {
    /// The metric.
    public var metric: String
    /// The period, as asked or defaulted.
    public var period: String
    /// The first day of the period, `2026-11-30`.
    public var startDate: String
    /// The last day of the period.
    public var endDate: String
    /// One value per day (steps) or night (sleep hours) that has data.
    public var days: [DayValue]
    /// Steps over the period.
    public var total: Double?
    /// Mean per day (steps), per night (sleep hours) or per sample (heart rate).
    public var average: Double?
    /// Lowest heart rate.
    public var minimum: Double?
    /// Highest heart rate.
    public var maximum: Double?
    /// A sentence in the user's language.
    public var message: String

    enum CodingKeys: String, CodingKey {
      case metric, period, days, total, average, minimum, maximum, message
      case startDate = "start_date"
      case endDate = "end_date"
    }
  }

  /// One day's or night's figure.
  public struct DayValue: Encodable, Sendable, Equatable {
    /// The day (for a night, the evening it began), `2026-11-30`.
    public var date: String
    /// Steps, or hours asleep.
    public var value: Double
  }

  static let types = [
    "steps": "HKQuantityTypeIdentifierStepCount",
    "heart_rate": "HKQuantityTypeIdentifierHeartRate",
    "sleep": "HKCategoryTypeIdentifierSleepAnalysis",
  ]

  public var intentID: String { "health.query" }
  public var displayName: String { "Health" }
  let exportURL: URL?
  let wallClock: WallClock
  let timeZone: TimeZone

  /// Creates the skill over the export at `exportURL` (`INTENT_HEALTH_EXPORT`).
  public init(exportURL: URL?, wallClock: WallClock = .system, timeZone: TimeZone = .current) {
    self.exportURL = exportURL
    self.wallClock = wallClock
    self.timeZone = timeZone
  }

  public func perform(_ input: Input) async throws -> Output {
    let lang = input.lang ?? .en
    guard let metric = input.metric, let type = Self.types[metric] else {
      throw SkillError.invalidInput(
        "slot 'metric' is '\(input.metric ?? "")'; use 'steps', 'heart_rate' or 'sleep'")
    }
    guard let exportURL else {
      throw SkillError.invalidInput(
        "INTENT_HEALTH_EXPORT is not set; export your data from the Health app ('Export All Health Data') and set it to the export.xml path"
      )
    }
    let period = input.period.flatMap { $0.isEmpty ? nil : $0 } ?? "today"
    let now = wallClock.now
    guard let days = Self.days(of: period, metric: metric, now: now, zone: timeZone) else {
      throw SkillError.invalidInput(
        "slot 'period' is '\(period)'; use today, yesterday, this_week, last_week, this_month or last_month"
      )
    }
    // Nights run noon to noon, so a night's records start up to 12 hours after its day ends.
    let shift: TimeInterval = metric == "sleep" ? 12 * 3600 : 0
    let records: [HealthExportReader.Record]
    do {
      records = try HealthExportReader(url: exportURL).records(
        ofType: type, from: days.start.addingTimeInterval(shift),
        to: days.end.addingTimeInterval(shift))
    } catch let failure as HealthExportReader.Failure {
      throw SkillError.failed(failure.description)
    }
    var output = Output(
      metric: metric, period: period, startDate: Wording.isoDay(days.start, zone: timeZone),
      endDate: Wording.isoDay(days.end.addingTimeInterval(-1), zone: timeZone), days: [],
      total: nil, average: nil, minimum: nil, maximum: nil, message: "")
    switch metric {
    case "steps":
      var perDay: [String: [String: Double]] = [:]
      for record in records where record.start >= days.start {
        guard let value = record.value, value >= 0 else { continue }
        perDay[Wording.isoDay(record.start, zone: timeZone), default: [:]][
          record.source, default: 0] +=
          value
      }
      output.days = perDay.keys.sorted().map {
        DayValue(date: $0, value: perDay[$0]?.values.max() ?? 0)
      }
      if !output.days.isEmpty {
        let total = output.days.reduce(0) { $0 + $1.value }
        output.total = total
        output.average = (total / Double(output.days.count)).rounded()
      }
    case "heart_rate":
      let values = records.compactMap(\.value).filter { $0 > 0 && $0 < 400 }
      if !values.isEmpty {
        output.average = (values.reduce(0, +) / Double(values.count) * 10).rounded() / 10
        output.minimum = values.min()
        output.maximum = values.max()
      }
    default:
      var nights: [String: [(Date, Date)]] = [:]
      for record in records where Self.isAsleep(record.category) && record.end > record.start {
        let night = Wording.isoDay(record.start.addingTimeInterval(-12 * 3600), zone: timeZone)
        nights[night, default: []].append((record.start, record.end))
      }
      let first = output.startDate
      let last = output.endDate
      output.days = nights.keys.sorted().filter { $0 >= first && $0 <= last }.map { night in
        DayValue(date: night, value: (Self.union(nights[night] ?? []) / 360).rounded() / 10)
      }
      if !output.days.isEmpty {
        let sum = output.days.reduce(0) { $0 + $1.value }
        output.average = (sum / Double(output.days.count) * 10).rounded() / 10
      }
    }
    output.message = message(for: output, lang: lang)
    return output
  }

  /// Whether a sleep category value counts as asleep (not in bed or awake).
  static func isAsleep(_ category: String?) -> Bool {
    guard let category else { return false }
    return category.hasPrefix("HKCategoryValueSleepAnalysisAsleep")
  }

  /// Seconds covered by the union of intervals.
  static func union(_ intervals: [(Date, Date)]) -> Double {
    var total = 0.0
    var current: (Date, Date)?
    for interval in intervals.sorted(by: { $0.0 < $1.0 }) {
      if let open = current, interval.0 <= open.1 {
        current = (open.0, max(open.1, interval.1))
      } else {
        if let open = current { total += open.1.timeIntervalSince(open.0) }
        current = interval
      }
    }
    if let open = current { total += open.1.timeIntervalSince(open.0) }
    return total
  }

  /// The days a period covers, midnight to midnight in `zone`; for sleep, today means last night.
  static func days(of period: String, metric: String, now: Date, zone: TimeZone) -> DateInterval? {
    var calendar = Wording.calendar(zone)
    calendar.firstWeekday = 2  // weeks start on Monday, as in ISO 8601 and in Chinese usage
    let today = calendar.startOfDay(for: now)
    func day(_ offset: Int, from date: Date = today) -> Date {
      calendar.date(byAdding: .day, value: offset, to: date) ?? date
    }
    let isSleep = metric == "sleep"
    switch period {
    case "today":
      return isSleep
        ? DateInterval(start: day(-1), end: today) : DateInterval(start: today, end: day(1))
    case "yesterday": return DateInterval(start: day(-1), end: today)
    case "this_week", "last_week":
      guard let week = calendar.dateInterval(of: .weekOfYear, for: now) else { return nil }
      if period == "this_week" { return DateInterval(start: week.start, end: day(1)) }
      return DateInterval(start: day(-7, from: week.start), end: week.start)
    case "this_month", "last_month":
      guard let month = calendar.dateInterval(of: .month, for: now) else { return nil }
      if period == "this_month" { return DateInterval(start: month.start, end: day(1)) }
      guard let start = calendar.date(byAdding: .month, value: -1, to: month.start) else {
        return nil
      }
      return DateInterval(start: start, end: month.start)
    default: return nil
    }
  }

  private func message(for output: Output, lang: UserLanguage) -> String {
    let zh = [
      "today": "今天", "yesterday": "昨天", "this_week": "本周", "last_week": "上周", "this_month": "本月",
      "last_month": "上个月",
    ]
    let en = [
      "today": "today", "yesterday": "yesterday", "this_week": "this week",
      "last_week": "last week", "this_month": "this month", "last_month": "last month",
    ]
    var when = lang.say(zh[output.period] ?? output.period, en[output.period] ?? output.period)
    if output.metric == "sleep", output.period == "today" || output.period == "yesterday" {
      when = lang.say("昨晚", "last night")
    }
    func number(_ value: Double) -> String {
      let formatter = NumberFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.numberStyle = .decimal
      formatter.usesGroupingSeparator = true
      formatter.groupingSeparator = ","
      formatter.groupingSize = 3
      formatter.maximumFractionDigits = 1
      return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }
    switch output.metric {
    case "steps":
      guard let total = output.total, let average = output.average else {
        return lang.say("\(when)没有步数记录", "no step data for \(when)")
      }
      if output.days.count == 1 {
        return lang.say("\(when)走了\(number(total))步", "\(number(total)) steps \(when)")
      }
      return lang.say(
        "\(when)共走了\(number(total))步，日均\(number(average))步（\(output.days.count)天）",
        "\(number(total)) steps \(when), \(number(average)) a day on average over \(output.days.count) days"
      )
    case "heart_rate":
      guard let average = output.average, let low = output.minimum, let high = output.maximum else {
        return lang.say("\(when)没有心率记录", "no heart rate data for \(when)")
      }
      return lang.say(
        "\(when)心率平均\(number(average))次/分，最低\(number(low))，最高\(number(high))",
        "heart rate \(when): average \(number(average)) bpm, min \(number(low)), max \(number(high))"
      )
    default:
      guard let average = output.average else {
        return lang.say("\(when)没有睡眠记录", "no sleep data for \(when)")
      }
      if output.days.count == 1 {
        return lang.say(
          "\(when)睡了\(number(average))小时", "\(number(average)) hours of sleep \(when)")
      }
      return lang.say(
        "\(when)平均每晚睡\(number(average))小时（\(output.days.count)晚）",
        "\(number(average)) hours a night on average \(when) (\(output.days.count) nights)")
    }
  }
}
