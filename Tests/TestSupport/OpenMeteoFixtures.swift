/// Open-Meteo-shaped answers for weather tests, as the real services return them.
public enum OpenMeteoFixtures {
  /// A `/v1/search` answer finding Hangzhou.
  public static let hangzhou = """
    {"results":[{"id":1808926,"name":"杭州市","latitude":30.29365,"longitude":120.16142,\
    "elevation":19.0,"feature_code":"PPLA","country_code":"CN","timezone":"Asia/Shanghai",\
    "country":"中国","admin1":"浙江"}],"generationtime_ms":0.8}
    """

  /// A `/v1/search` answer that found nothing.
  public static let noPlace = #"{"generationtime_ms":0.5}"#

  /// A `/v1/forecast` answer: overcast now, light rain tomorrow, for three days from 2026-11-30.
  public static let forecast = """
    {"latitude":30.25,"longitude":120.125,"generationtime_ms":0.1,"utc_offset_seconds":28800,\
    "timezone":"Asia/Shanghai","timezone_abbreviation":"GMT+8","elevation":19.0,\
    "current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C","weather_code":"wmo code"},\
    "current":{"time":"2026-11-30T09:00","interval":900,"temperature_2m":11.6,"weather_code":3},\
    "daily_units":{"time":"iso8601","weather_code":"wmo code","temperature_2m_max":"°C",\
    "temperature_2m_min":"°C","precipitation_probability_max":"%"},\
    "daily":{"time":["2026-11-30","2026-12-01","2026-12-02"],"weather_code":[3,61,0],\
    "temperature_2m_max":[14.2,12.6,15.1],"temperature_2m_min":[7.9,8.4,5.0],\
    "precipitation_probability_max":[10,80,0]}}
    """

  /// An Open-Meteo error answer (sent with status 400).
  public static let badRequest =
    #"{"error":true,"reason":"Latitude must be in range of -90 to 90°."}"#
}
