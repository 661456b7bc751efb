public import Foundation

/// The cloud model settings read from the environment; the key is kept but never printed.
public struct LLMConfiguration: Sendable, Equatable, CustomStringConvertible {
  /// The OpenAI-compatible endpoint, from `INTENT_LLM_BASE_URL`.
  public var baseURL: URL?
  /// The model name, from `INTENT_LLM_MODEL`.
  public var model: String?
  /// The API key, from `INTENT_LLM_API_KEY`; never logged or traced.
  public var apiKey: String?
  /// Longest wait for a reply, from `INTENT_LLM_TIMEOUT` in seconds (default 10).
  public var timeout: Duration
  /// How the model is asked to answer, from `INTENT_LLM_FORMAT` (default `json_object`).
  public var answerShape: AnswerShape
  /// Whether the reply is streamed as server-sent events, from `INTENT_LLM_STREAM` (`1`/`true`).
  public var isStreaming: Bool

  /// 10 s: a classification reply is a few tokens; longer means the service is struggling and
  /// the offline guess serves the user better.
  public static let defaultTimeout: Duration = .seconds(10)

  /// Creates settings directly, for tests and embedding apps.
  public init(
    baseURL: URL?, model: String?, apiKey: String? = nil, timeout: Duration = defaultTimeout,
    answerShape: AnswerShape = .jsonObject, isStreaming: Bool = false
  ) {
    self.baseURL = baseURL
    self.model = model
    self.apiKey = apiKey
    self.timeout = timeout
    self.answerShape = answerShape
    self.isStreaming = isStreaming
  }

  /// Reads the settings from environment variables.
  public init(environment: [String: String]) {
    baseURL = environment["INTENT_LLM_BASE_URL"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    model = environment["INTENT_LLM_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
    apiKey = environment["INTENT_LLM_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    if let text = environment["INTENT_LLM_TIMEOUT"], let seconds = Double(text), seconds > 0,
      seconds <= 600
    {
      timeout = .milliseconds(Int64(seconds * 1000))
    } else {
      timeout = Self.defaultTimeout
    }
    answerShape =
      environment["INTENT_LLM_FORMAT"].flatMap { AnswerShape(rawValue: $0.lowercased()) }
      ?? .jsonObject
    isStreaming = ["1", "true", "yes"].contains(environment["INTENT_LLM_STREAM"]?.lowercased())
  }

  /// Whether both an endpoint and a model are set.
  public var isComplete: Bool { baseURL != nil && model != nil }

  /// The settings for people: the endpoint's host only and never the key.
  public var description: String {
    let host = baseURL?.host ?? "(no endpoint)"
    return "model '\(model ?? "(none)")' at \(host)"
  }

  /// The message when the cloud is asked for but not configured.
  public static let notConfiguredMessage =
    "no cloud model is configured; set INTENT_LLM_BASE_URL and INTENT_LLM_MODEL, or use '--route local'"
}
