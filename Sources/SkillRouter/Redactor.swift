/// Removes secrets from text before it reaches a trace, a log or the screen.
///
/// Known secret values (the API key) are replaced wherever they occur; so are bearer tokens,
/// `Authorization` headers and `sk-…` style keys a model or server might echo back.
public struct Redactor: Sendable {
  /// Exact values to hide, such as the configured API key.
  public var secrets: [String]

  /// The text that replaces a secret.
  public static let mask = "[redacted]"

  /// Creates a redactor for some known secret values; empty and very short values are ignored.
  public init(secrets: [String] = []) {
    self.secrets = secrets.filter { $0.count >= 4 }
  }

  /// The text with only the known secret values replaced by `[redacted]`.
  ///
  /// For what the user typed: a key pasted into an utterance must not be stored or traced, but
  /// the user's own words ("api key: …" in a memo) are not rewritten by the patterns.
  public func redactKnownSecrets(_ text: String) -> String {
    var result = text
    for secret in secrets where result.contains(secret) {
      result = result.replacingOccurrences(of: secret, with: Self.mask)
    }
    return result
  }

  /// The text with every secret replaced by `[redacted]`.
  public func redact(_ text: String) -> String {
    var result = text
    for secret in secrets {
      result = result.replacingOccurrences(of: secret, with: Self.mask)
    }
    result = result.replacing(
      #/(?i)(authorization["']?\s*[:=]\s*["']?)[^"'\n,}]+/#, with: { "\($0.output.1)\(Self.mask)" })
    result = result.replacing(
      #/(?i)\bbearer\s+[A-Za-z0-9._~+\/=-]+/#, with: { _ in "Bearer \(Self.mask)" })
    result = result.replacing(#/\bsk-[A-Za-z0-9_-]{8,}/#, with: { _ in Self.mask })
    result = result.replacing(
      #/(?i)(api[_-]?key["']?\s*[:=]\s*["']?)[^"'\s,}]+/#, with: { "\($0.output.1)\(Self.mask)" })
    return result
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    return self.split(separator: target, omittingEmptySubsequences: false).joined(
      separator: replacement)
  }
}
