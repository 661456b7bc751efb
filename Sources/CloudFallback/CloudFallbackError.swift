/// Why the cloud could not decide an utterance; the router records it and falls back.
public enum CloudFallbackError: Error, Equatable, CustomStringConvertible, Sendable {
  /// No model is configured, or this build has no client for it.
  case notConfigured(String)
  /// Nothing listens at the endpoint, or its host cannot be found: the device is offline.
  case unreachable(host: String)
  /// The whole call, retries included, outlasted the deadline.
  case timedOut(seconds: Double)
  /// The server answered with an HTTP error status (after any retry the deadline allowed).
  case httpStatus(Int, host: String)
  /// The transport failed in another way; the message names the host only.
  case transport(String)
  /// The reply was longer than the client reads.
  case replyTooLarge(bytes: Int)
  /// The reply nests deeper than the decoder reads.
  case tooDeep(limit: Int)
  /// The model stopped at its token limit, so its answer is cut off.
  case truncated
  /// The reply held no JSON object.
  case noJSON
  /// The reply's JSON did not have the expected shape.
  case malformedReply(String)
  /// The model named an intent the grammars do not declare or no skill handles.
  case unknownIntent(String)
  /// A slot value the model gave does not fit the slot's type.
  case invalidSlot(name: String, value: String, expected: String)

  public var description: String {
    switch self {
    case .notConfigured(let message): message
    case .unreachable(let host):
      "the cloud endpoint at \(host) is unreachable (offline?); check INTENT_LLM_BASE_URL"
    case .timedOut(let seconds):
      "no reply within the cloud timeout of \(Self.format(seconds)) s; raise INTENT_LLM_TIMEOUT"
    case .httpStatus(let status, let host) where status == 401 || status == 403:
      "the cloud endpoint at \(host) refused the request (HTTP \(status)); check INTENT_LLM_API_KEY"
    case .httpStatus(let status, let host):
      "the cloud endpoint at \(host) answered HTTP \(status)"
    case .transport(let message): "the cloud call failed: \(message)"
    case .replyTooLarge(let bytes): "the cloud reply is longer than \(bytes) bytes"
    case .tooDeep(let limit): "the cloud reply nests deeper than \(limit) levels"
    case .truncated:
      "the cloud model stopped at its token limit (finish_reason 'length'); the answer is cut off"
    case .noJSON: "the cloud reply held no JSON object"
    case .malformedReply(let message): "the cloud reply is malformed: \(message)"
    case .unknownIntent(let intent): "the cloud model named unknown intent '\(intent)'"
    case .invalidSlot(let name, let value, let expected):
      "the cloud model gave slot '\(name)' the value '\(value)', which is not \(expected)"
    }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
