public import Foundation
public import Skills

/// Answers weather questions (`weather.query`) from Open-Meteo: now, or the asked day.
///
/// Its results are kept as last-good results, so that offline the executor answers with the
/// last forecast for the same place and day, marked stale with its age.
public struct WeatherSkill: Skill {
  /// The slots `weather.query` fills.
  public struct Input: Decodable, Sendable {
    /// The place; absent means the home location.
    public var location: String?
    /// The day asked about (`2026-12-01`); absent means now.
    public var date: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The forecast for one place and day.
  public struct Output: Encodable, Sendable, Equatable {
    /// The place as the user named it.
    public var location: String
    /// The place as the geocoder found it.
    public var place: OpenMeteoClient.Place
    /// The day of the forecast, `2026-12-01`.
    public var date: String
    /// Whether this is current conditions (no day was asked).
    public var isCurrent: Bool
    /// The temperature now (current conditions only), °C.
    public var temperature: Double?
    /// The day's high, °C.
    public var high: Double?
    /// The day's low, °C.
    public var low: Double?
    /// The day's highest chance of precipitation, %.
    public var precipitationProbability: Double?
    /// The WMO weather code.
    public var weatherCode: Int?
    /// The condition in the user's language.
    public var condition: String?
    /// A sentence in the user's language.
    public var message: String

    enum CodingKeys: String, CodingKey {
      case location, place, date, temperature, high, low, condition, message
      case isCurrent = "current"
      case precipitationProbability = "precipitation_probability"
      case weatherCode = "weather_code"
    }
  }

  public var intentID: String { "weather.query" }
  public var displayName: String { "Weather" }
  public var keepsLastGoodResult: Bool { true }
  let client: OpenMeteoClient
  let homeLocation: String?
  let wallClock: WallClock
  let timeZone: TimeZone

  /// Creates the skill; `homeLocation` answers questions that name no place.
  public init(
    client: OpenMeteoClient, homeLocation: String?, wallClock: WallClock = .system,
    timeZone: TimeZone = .current
  ) {
    self.client = client
    self.homeLocation = homeLocation.flatMap {
      let trimmed = $0.trimmingCharacters(in: .whitespacesAndNewlines)
      return trimmed.isEmpty ? nil : trimmed
    }
    self.wallClock = wallClock
    self.timeZone = timeZone
  }

  /// Looks the place up and reads its forecast, reporting each stage as a step.
  public func perform(_ input: Input) async throws -> Output {
    SkillProgress.report(.started)
    do {
      let output = try await forecast(input)
      SkillProgress.report(.finished)
      return output
    } catch {
      SkillProgress.report(
        .failed((error as? SkillError)?.description ?? "the forecast could not be read"))
      throw error
    }
  }

  private func forecast(_ input: Input) async throws -> Output {
    let lang = input.lang ?? .en
    let asked = input.location?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    guard let name = asked.isEmpty ? homeLocation : asked else {
      throw SkillError.invalidInput(
        "no place was named and INTENT_HOME_LOCATION is not set; name a city ('weather in Hangzhou') or set INTENT_HOME_LOCATION"
      )
    }
    let now = wallClock.now
    let day = input.date.flatMap { $0.isEmpty ? nil : $0 }
    if let day { _ = try Wording.day(ofSlot: day, zone: timeZone) }
    SkillProgress.report(.progress(lang.say("查找“\(name)”", "finding '\(name)'")))
    guard let place = try await client.place(named: name, language: lang) else {
      throw SkillError.invalidInput(
        "the geocoding service knows no place called '\(name)'; check the spelling or name a nearby city"
      )
    }
    SkillProgress.report(.progress(lang.say("获取天气预报", "fetching the forecast")))
    let forecast = try await client.forecast(for: place)
    guard let daily = forecast.daily, !daily.time.isEmpty else {
      throw SkillError.unavailable("the forecast for '\(name)' has no daily values")
    }
    let target = day ?? forecast.current?.time.map { String($0.prefix(10)) } ?? daily.time[0]
    guard let index = daily.time.firstIndex(of: target) else {
      throw SkillError.invalidInput(
        "the forecast covers \(daily.time[0]) to \(daily.time[daily.time.count - 1]); '\(target)' is outside it"
      )
    }
    func value<T>(_ values: [T?]?) -> T? {
      guard let values, index < values.count else { return nil }
      return values[index]
    }
    let isCurrent = day == nil
    let code =
      isCurrent
      ? (forecast.current?.weatherCode ?? value(daily.weatherCode)) : value(daily.weatherCode)
    // A value outside what weather can be is a broken reply, not a number to print (or trap on).
    func within(_ number: Double?, _ range: ClosedRange<Double>) -> Double? {
      number.flatMap { range.contains($0) ? $0 : nil }
    }
    let temperatures: ClosedRange<Double> = -150...150
    var output = Output(
      location: name, place: place, date: target, isCurrent: isCurrent,
      temperature: isCurrent ? within(forecast.current?.temperature, temperatures) : nil,
      high: within(value(daily.high), temperatures), low: within(value(daily.low), temperatures),
      precipitationProbability: within(value(daily.precipitationProbability), 0...100),
      weatherCode: code, condition: code.map { WeatherCondition.name($0, lang) }, message: "")
    output.message = message(for: output, now: now, lang: lang)
    return output
  }

  private func message(for output: Output, now: Date, lang: UserLanguage) -> String {
    func degrees(_ value: Double) -> String { "\(Int(value.rounded()))°C" }
    var parts: [String] = []
    if let condition = output.condition { parts.append(condition) }
    if let temperature = output.temperature { parts.append(degrees(temperature)) }
    let when: String
    if output.isCurrent {
      when = lang.say("现在", "now")
    } else if let interval = Wording.dayInterval(fromISODay: output.date, zone: timeZone) {
      when = Wording.day(interval.start, now: now, zone: timeZone, lang)
    } else {
      when = output.date
    }
    var range: [String] = []
    if let high = output.high {
      range.append(lang.say("最高\(degrees(high))", "high \(degrees(high))"))
    }
    if let low = output.low { range.append(lang.say("最低\(degrees(low))", "low \(degrees(low))")) }
    if let rain = output.precipitationProbability {
      let percent = Int(rain.rounded())
      range.append(lang.say("降水概率\(percent)%", "\(percent)% chance of precipitation"))
    }
    let comma = lang.say("，", ", ")
    var text = parts.joined(separator: comma)
    if output.isCurrent, !range.isEmpty {
      let day = range.joined(separator: comma)
      text += lang.say("（今天\(day)）", " (today \(day))")
    } else if !range.isEmpty {
      text += (text.isEmpty ? "" : comma) + range.joined(separator: comma)
    }
    return lang.say("\(output.location)\(when)：\(text)", "\(output.location) \(when): \(text)")
  }
}
