/// How an utterance was finally decided, as reported by `intent run`.
public enum RouteKind: String, Sendable, Codable {
  /// The on-device classifier was confident.
  case local
  /// The cloud model decided.
  case cloud
  /// A phrase the cloud resolved before, answered offline from the learned phrases.
  case learned
  /// The cloud was absent or failed, and the local guess cleared the offline threshold.
  case offline
  /// Nothing was understood.
  case unmatched
}
