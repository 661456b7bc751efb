import BuiltinSkills
import Foundation
import Skills
import TestSupport
import Testing

struct WeatherSkillTests {
  let now = Date(timeIntervalSince1970: 1_796_000_400)  // 2026-11-30T09:00:00+08:00
  let shanghai = TimeZone(identifier: "Asia/Shanghai") ?? .gmt

  /// A server answering Open-Meteo's two paths.
  static func openMeteo(
    search: String = OpenMeteoFixtures.hangzhou, forecast: String = OpenMeteoFixtures.forecast
  ) throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      if request.path.hasPrefix("/v1/search") { return .text(search) }
      if request.path.hasPrefix("/v1/forecast") { return .text(forecast) }
      return .text("{}", status: 404)
    }
  }

  func skill(_ server: LoopbackHTTPServer, home: String? = nil, timeout: Double = 10) -> AnySkill {
    AnySkill(
      WeatherSkill(
        client: OpenMeteoClient(
          geocodingURL: server.baseURL, weatherURL: server.baseURL, timeout: timeout),
        homeLocation: home, wallClock: .fixed(now), timeZone: shanghai))
  }

  func run(_ skill: AnySkill, _ json: String) async throws -> [String: Any] {
    let data = try await skill.call(with: Data(json.utf8)).perform()
    return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
  }

  @Test func answersTheAskedDayWithHighLowRainAndCondition() async throws {
    let server = try Self.openMeteo()
    defer { server.stop() }
    let result = try await run(
      skill(server), #"{"location": "杭州", "date": "2026-12-01", "lang": "zh"}"#)
    #expect(result["message"] as? String == "杭州明天：小雨，最高13°C，最低8°C，降水概率80%")
    #expect(result["high"] as? Double == 12.6)
    #expect(result["low"] as? Double == 8.4)
    #expect(result["precipitation_probability"] as? Double == 80)
    #expect(result["weather_code"] as? Int == 61)
    let search = try #require(server.requests.first { $0.path.hasPrefix("/v1/search") })
    let query = URLComponents(string: search.path)?.queryItems ?? []
    #expect(query.first { $0.name == "name" }?.value == "杭州")
    #expect(query.first { $0.name == "language" }?.value == "zh")
    let forecast = try #require(server.requests.first { $0.path.hasPrefix("/v1/forecast") })
    #expect(forecast.path.contains("latitude=30.29365"))
    #expect(forecast.path.contains("precipitation_probability_max"))
  }

  @Test func answersCurrentConditionsInEnglishWithoutADay() async throws {
    let server = try Self.openMeteo()
    defer { server.stop() }
    let result = try await run(skill(server), #"{"location": "Hangzhou", "lang": "en"}"#)
    #expect(
      result["message"] as? String
        == "Hangzhou now: overcast, 12°C (today high 14°C, low 8°C, 10% chance of precipitation)")
    #expect(result["temperature"] as? Double == 11.6)
    #expect(result["current"] as? Bool == true)
  }

  @Test func noPlaceMeansTheHomeLocationElseAClearMessage() async throws {
    let server = try Self.openMeteo()
    defer { server.stop() }
    let home = try await run(skill(server, home: "杭州"), #"{"lang": "zh"}"#)
    #expect((home["message"] as? String)?.hasPrefix("杭州现在：阴，12°C") == true)
    await #expect(
      throws: SkillError.invalidInput(
        "no place was named and INTENT_HOME_LOCATION is not set; name a city ('weather in Hangzhou') or set INTENT_HOME_LOCATION"
      )
    ) {
      _ = try await run(skill(server), "{}")
    }
  }

  @Test func anUnknownPlaceOrADayOutsideTheForecastIsSaidClearly() async throws {
    let server = try Self.openMeteo(search: OpenMeteoFixtures.noPlace)
    defer { server.stop() }
    await #expect(
      throws: SkillError.invalidInput(
        "the geocoding service knows no place called 'Atlantis'; check the spelling or name a nearby city"
      )
    ) {
      _ = try await run(skill(server), #"{"location": "Atlantis"}"#)
    }
    let known = try Self.openMeteo()
    defer { known.stop() }
    await #expect(
      throws: SkillError.invalidInput(
        "the forecast covers 2026-11-30 to 2026-12-02; '2026-12-25' is outside it")
    ) {
      _ = try await run(skill(known), #"{"location": "杭州", "date": "2026-12-25"}"#)
    }
  }

  @Test func serverErrorsAreTransientAndGarbageIsUnavailable() async throws {
    let failing = try LoopbackHTTPServer { _ in
      .text(#"{"error":true,"reason":"busy"}"#, status: 503)
    }
    defer { failing.stop() }
    await #expect(
      throws: SkillError.transient("geocoding service at '127.0.0.1' answered 503: busy")
    ) {
      _ = try await run(skill(failing), #"{"location": "杭州"}"#)
    }
    let garbage = try Self.openMeteo(forecast: "<html>captive portal</html>")
    defer { garbage.stop() }
    await #expect(
      throws: SkillError.unavailable(
        "forecast service at '127.0.0.1' answered with something that is not Open-Meteo JSON")
    ) {
      _ = try await run(skill(garbage), #"{"location": "杭州"}"#)
    }
    let refusing = try LoopbackHTTPServer { _ in .text(OpenMeteoFixtures.badRequest, status: 400) }
    defer { refusing.stop() }
    await #expect(
      throws: SkillError.failed(
        "geocoding service at '127.0.0.1' refused the request (400): Latitude must be in range of -90 to 90°."
      )
    ) {
      _ = try await run(skill(refusing), #"{"location": "杭州"}"#)
    }
  }

  @Test func absurdNumbersInAReplyAreDroppedNotPrinted() async throws {
    let hostile = OpenMeteoFixtures.forecast.replacingOccurrences(of: "12.6", with: "1e300")
    let server = try Self.openMeteo(forecast: hostile)
    defer { server.stop() }
    let result = try await run(
      skill(server), #"{"location": "杭州", "date": "2026-12-01", "lang": "en"}"#)
    #expect(result["high"] == nil)
    #expect(
      result["message"] as? String
        == "杭州 tomorrow: light rain, low 8°C, 80% chance of precipitation")
  }

  @Test func aHangingServerIsCancelledAtTheExecutorsTimeout() async throws {
    let server = try LoopbackHTTPServer { _ in .hang }
    defer { server.stop() }
    let clock = TestClock()
    let executor = SkillExecutor(clock: clock, timeout: .seconds(5), retryPolicy: .never)
    let call = try skill(server).call(with: Data(#"{"location": "杭州"}"#.utf8))
    async let outcome = executor.execute(call)
    #expect(await clock.waitForSleepers())
    clock.advance(by: .seconds(5))
    #expect(await outcome.status == .failed(.timedOut(seconds: 5)))
  }

  @Test func offlineTheLastGoodResultComesBackStaleWithItsAge() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let date = TestDate(now)
    let cache = LastGoodCache(directory: folder.url, wallClock: WallClock { date.now })
    let executor = SkillExecutor(clock: TestClock(), retryPolicy: .never)
    let server = try Self.openMeteo()
    let weather = skill(server)
    let input = Data(#"{"location": "杭州", "date": "2026-12-01", "lang": "zh"}"#.utf8)
    let online = await executor.execute(try weather.call(with: input), cache: cache)
    #expect(!online.isStale)
    server.stop()

    date.advance(by: 3 * 3600)
    let offline = await executor.execute(try weather.call(with: input), cache: cache)
    guard case .stale(let data, let age, let error) = offline.status else {
      Issue.record("expected a stale result, got \(offline.status)")
      return
    }
    #expect(age == 10_800)
    #expect(data == online.output)
    #expect(error.allowsLastGoodResult)
    #expect(UserLanguage.zh.staleNote(age: age) == "数据更新于3小时前")
    #expect(UserLanguage.en.staleNote(age: age) == "as of 3 hours ago")
  }
}
