/// Why the cloud could not decide an utterance; the router records it and falls back.
public enum CloudFallbackError: Error, Equatable, CustomStringConvertible, Sendable {
  /// No model is configured, or this build has no client for it.
  case notConfigured(String)
  /// The reply held no JSON object.
  case noJSON
  /// The reply's JSON did not have the expected shape.
  case malformedReply(String)
  /// The model named an intent the grammars do not declare.
  case unknownIntent(String)

  public var description: String {
    switch self {
    case .notConfigured(let message): message
    case .noJSON: "the cloud reply held no JSON object"
    case .malformedReply(let message): "the cloud reply is malformed: \(message)"
    case .unknownIntent(let intent): "the cloud model named unknown intent '\(intent)'"
    }
  }
}
