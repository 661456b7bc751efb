import Skills

/// Names for WMO weather interpretation codes (the `weather_code` Open-Meteo returns).
enum WeatherCondition {
  /// The condition for `code` in the user's language.
  static func name(_ code: Int, _ lang: UserLanguage) -> String {
    guard let names = table[code] else {
      return lang.say("未知天气（代码\(code)）", "unknown conditions (code \(code))")
    }
    return lang == .zh ? names.zh : names.en
  }

  /// Whether the code means rain, drizzle, showers or thunder.
  static func isWet(_ code: Int) -> Bool {
    (51...67).contains(code) || (80...82).contains(code) || code >= 95
  }

  private static let table: [Int: (zh: String, en: String)] = [
    0: ("晴", "clear sky"), 1: ("晴间多云", "mainly clear"), 2: ("多云", "partly cloudy"),
    3: ("阴", "overcast"), 45: ("雾", "fog"), 48: ("冻雾", "freezing fog"),
    51: ("小毛毛雨", "light drizzle"), 53: ("毛毛雨", "drizzle"), 55: ("浓毛毛雨", "dense drizzle"),
    56: ("冻毛毛雨", "freezing drizzle"), 57: ("强冻毛毛雨", "dense freezing drizzle"),
    61: ("小雨", "light rain"), 63: ("中雨", "moderate rain"), 65: ("大雨", "heavy rain"),
    66: ("冻雨", "freezing rain"), 67: ("强冻雨", "heavy freezing rain"),
    71: ("小雪", "light snow"), 73: ("中雪", "moderate snow"), 75: ("大雪", "heavy snow"),
    77: ("米雪", "snow grains"), 80: ("阵雨", "rain showers"), 81: ("强阵雨", "heavy rain showers"),
    82: ("暴雨", "violent rain showers"), 85: ("阵雪", "snow showers"),
    86: ("强阵雪", "heavy snow showers"), 95: ("雷阵雨", "thunderstorm"),
    96: ("雷阵雨伴有冰雹", "thunderstorm with hail"), 99: ("强雷阵雨伴有冰雹", "thunderstorm with heavy hail"),
  ]
}
