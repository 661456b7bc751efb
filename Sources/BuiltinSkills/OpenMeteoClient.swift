public import Foundation
public import Skills
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Open-Meteo's geocoding (`/v1/search`) and forecast (`/v1/forecast`) JSON APIs over URLSession.
///
/// No key is needed. Base URLs are configurable (`INTENT_GEOCODING_URL`, `INTENT_WEATHER_URL`)
/// so that tests and air-gapped mirrors can stand in for Open-Meteo's hosts. Failures map to
/// ``SkillError``: an unreachable host is `unavailable`, a timeout or a 5xx/429 is `transient`.
public struct OpenMeteoClient: Sendable {
  /// A place found by the geocoding API.
  public struct Place: Sendable, Equatable, Codable {
    /// The place's name in the asked language.
    public var name: String
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// The country, when given.
    public var country: String?
  }

  /// The parts of a forecast the weather skill reads.
  public struct Forecast: Sendable, Equatable, Decodable {
    /// Current conditions.
    public struct Current: Sendable, Equatable, Decodable {
      /// Local time of the reading, `2026-11-30T09:00`.
      public var time: String?
      /// Air temperature at 2 m, °C.
      public var temperature: Double?
      /// The WMO weather code.
      public var weatherCode: Int?

      enum CodingKeys: String, CodingKey {
        case time
        case temperature = "temperature_2m"
        case weatherCode = "weather_code"
      }
    }

    /// Daily values, one array element per day.
    public struct Daily: Sendable, Equatable, Decodable {
      /// The days, `2026-11-30`.
      public var time: [String]
      /// WMO weather codes.
      public var weatherCode: [Int?]?
      /// Highs, °C.
      public var high: [Double?]?
      /// Lows, °C.
      public var low: [Double?]?
      /// Highest precipitation probability of the day, %.
      public var precipitationProbability: [Double?]?

      enum CodingKeys: String, CodingKey {
        case time
        case weatherCode = "weather_code"
        case high = "temperature_2m_max"
        case low = "temperature_2m_min"
        case precipitationProbability = "precipitation_probability_max"
      }
    }

    /// Current conditions, when asked for.
    public var current: Current?
    /// The daily forecast.
    public var daily: Daily?
  }

  /// Default geocoding host.
  public static let defaultGeocodingURL = URL(string: "https://geocoding-api.open-meteo.com")
  /// Default forecast host.
  public static let defaultWeatherURL = URL(string: "https://api.open-meteo.com")
  /// Days the forecast covers (Open-Meteo's maximum).
  public static let forecastDays = 16
  /// Largest response read; real answers are a few kilobytes.
  static let maximumResponseSize = 1 << 20

  /// Where `/v1/search` is appended.
  public var geocodingURL: URL
  /// Where `/v1/forecast` is appended.
  public var weatherURL: URL
  /// Longest wait for one request, seconds.
  public var timeout: Double

  /// Creates a client; nil base URLs mean Open-Meteo's own hosts.
  public init(geocodingURL: URL? = nil, weatherURL: URL? = nil, timeout: Double = 10) {
    self.geocodingURL =
      geocodingURL ?? Self.defaultGeocodingURL ?? URL(fileURLWithPath: "/")
    self.weatherURL = weatherURL ?? Self.defaultWeatherURL ?? URL(fileURLWithPath: "/")
    self.timeout = timeout
  }

  /// Finds the place called `name`, or nil when the service knows none.
  public func place(named name: String, language: UserLanguage) async throws -> Place? {
    struct Answer: Decodable { var results: [Place]? }
    let url = try Self.url(
      geocodingURL, path: "/v1/search",
      query: [
        ("name", name), ("count", "1"), ("language", language.rawValue), ("format", "json"),
      ])
    let answer: Answer = try await fetch(url, service: "geocoding")
    return answer.results?.first
  }

  /// The current conditions and the daily forecast at `place`, in the place's own time zone.
  public func forecast(for place: Place) async throws -> Forecast {
    let url = try Self.url(
      weatherURL, path: "/v1/forecast",
      query: [
        ("latitude", String(place.latitude)), ("longitude", String(place.longitude)),
        ("current", "temperature_2m,weather_code"),
        (
          "daily",
          "weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max"
        ),
        ("timezone", "auto"), ("forecast_days", String(Self.forecastDays)),
      ])
    return try await fetch(url, service: "forecast")
  }

  static func url(_ base: URL, path: String, query: [(String, String)]) throws -> URL {
    var text = base.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    guard var components = URLComponents(string: text + path) else {
      throw SkillError.failed("weather base URL '\(base.absoluteString)' is not a valid URL")
    }
    components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
    guard let url = components.url else {
      throw SkillError.failed("weather base URL '\(base.absoluteString)' is not a valid URL")
    }
    return url
  }

  private func fetch<T: Decodable>(_ url: URL, service: String) async throws -> T {
    let host = url.host ?? url.absoluteString
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let (data, status) = try await Self.load(request, timeout: timeout, host: host)
    guard (200..<300).contains(status) else {
      let reason = (try? JSONDecoder().decode(ErrorAnswer.self, from: data))?.reason
      let detail = reason.map { ": \($0.prefix(200))" } ?? ""
      if status >= 500 || status == 429 {
        throw SkillError.transient("\(service) service at '\(host)' answered \(status)\(detail)")
      }
      throw SkillError.failed(
        "\(service) service at '\(host)' refused the request (\(status))\(detail)")
    }
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      throw SkillError.unavailable(
        "\(service) service at '\(host)' answered with something that is not Open-Meteo JSON")
    }
  }

  private struct ErrorAnswer: Decodable { var reason: String? }

  /// Performs one request, cancelling it when the calling task is cancelled.
  private static func load(_ request: URLRequest, timeout: Double, host: String) async throws
    -> (Data, Int)
  {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let box = TaskBox()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<(Data, Int), any Error>) in
        let task = session.dataTask(with: request) { data, response, error in
          if let error {
            continuation.resume(throwing: Self.skillError(for: error, host: host))
            return
          }
          let data = data ?? Data()
          guard data.count <= maximumResponseSize else {
            continuation.resume(
              throwing: SkillError.unavailable("weather service at '\(host)' answered too much"))
            return
          }
          continuation.resume(returning: (data, (response as? HTTPURLResponse)?.statusCode ?? 0))
        }
        if box.set(task) { task.resume() } else { task.cancel() }
      }
    } onCancel: {
      box.cancel()
    }
  }

  static func skillError(for error: any Error, host: String) -> any Error {
    guard let error = error as? URLError else {
      return SkillError.unavailable("weather service at '\(host)' cannot be reached")
    }
    switch error.code {
    case .cancelled: return CancellationError()
    case .timedOut:
      return SkillError.transient("weather service at '\(host)' did not answer in time")
    case .networkConnectionLost:
      return SkillError.transient("the connection to weather service at '\(host)' was lost")
    default:
      return SkillError.unavailable(
        "weather service at '\(host)' cannot be reached (\(error.code.rawValue)); check the network, INTENT_GEOCODING_URL and INTENT_WEATHER_URL"
      )
    }
  }
}

/// The data task of one request, cancellable from the cancellation handler.
private final class TaskBox: Sendable {
  private struct State {
    var task: URLSessionDataTask?
    var isCancelled = false
  }
  // Every access goes through the mutex; the task is only resumed or cancelled, never changed.
  private let state = Mutex(State())

  /// Records the task; false when the caller was already cancelled.
  func set(_ task: URLSessionDataTask) -> Bool {
    state.withLock { state in
      guard !state.isCancelled else { return false }
      state.task = task
      return true
    }
  }

  func cancel() {
    let task = state.withLock { state -> URLSessionDataTask? in
      state.isCancelled = true
      return state.task
    }
    task?.cancel()
  }
}
