public import IntentEngine

/// The routing policy as a pure state machine.
///
/// Given the local parse (and later the cloud's answer), it says what to do next. It touches no
/// clock, network or skill.
public struct Router: Sendable {
  /// Which deciders may be used.
  public var mode: RouteMode
  /// Whether a cloud client is configured.
  public var isCloudAvailable: Bool
  /// Confidence at or above which the local parse is used without asking anyone.
  public var localThreshold: Double
  /// Confidence at or above which the local guess is used when the cloud is absent or fails.
  public var offlineThreshold: Double

  /// Creates a router.
  public init(
    mode: RouteMode, isCloudAvailable: Bool, localThreshold: Double, offlineThreshold: Double
  ) {
    self.mode = mode
    self.isCloudAvailable = isCloudAvailable
    self.localThreshold = localThreshold
    self.offlineThreshold = offlineThreshold
  }

  /// Creates a router with the engine's calibrated thresholds.
  public init(mode: RouteMode, isCloudAvailable: Bool, calibration: Calibration) {
    self.init(
      mode: mode, isCloudAvailable: isCloudAvailable, localThreshold: calibration.localThreshold,
      offlineThreshold: calibration.offlineThreshold)
  }

  /// The next thing to do for one command.
  public enum Step: Sendable, Equatable {
    /// Run the local parse: it is confident.
    case local(reason: String)
    /// Ask the cloud model.
    case askCloud(reason: String)
    /// Run the cloud model's decision.
    case cloud(reason: String)
    /// Run what the cloud decided for this phrase before.
    case learned(reason: String)
    /// Run the local guess: the cloud is absent or failed and the guess clears the offline bar.
    case offline(reason: String)
    /// Answer "not understood".
    case unmatched(reason: String)

    /// The route reported for a final step; nil for `askCloud`.
    public var route: RouteKind? {
      switch self {
      case .local: .local
      case .cloud: .cloud
      case .learned: .learned
      case .offline: .offline
      case .unmatched: .unmatched
      case .askCloud: nil
      }
    }

    /// Why this step was chosen, for traces and `--json`.
    public var reason: String {
      switch self {
      case .local(let reason), .askCloud(let reason), .cloud(let reason), .learned(let reason),
        .offline(let reason), .unmatched(let reason):
        reason
      }
    }
  }

  /// What the cloud said, as the policy needs to know it.
  public enum CloudAnswer: Sendable, Equatable {
    /// The model chose a declared intent.
    case decided(intent: String)
    /// The model said no intent fits.
    case noIntent
    /// The cloud failed: timeout, transport error, garbage or an unknown intent.
    case failed(reason: String)
  }

  /// The first step for a parse result.
  public func firstStep(for parse: ParseResult) -> Step {
    let confidence = Self.format(parse.confidence)
    if mode == .cloud { return .askCloud(reason: "'--route cloud' always asks the cloud") }
    if parse.intent != nil, parse.route == .local {
      return .local(
        reason: "confidence \(confidence) ≥ local threshold \(Self.format(localThreshold))")
    }
    let unsure =
      parse.intent == nil
      ? "no intent matched"
      : parse.missingSlots.isEmpty
        ? "confidence \(confidence) < local threshold \(Self.format(localThreshold))"
        : "required slots missing (\(parse.missingSlots.joined(separator: ", ")))"
    switch mode {
    case .auto where isCloudAvailable:
      return .askCloud(reason: unsure)
    case .auto:
      return fallback(for: parse, because: "\(unsure); no cloud model is configured")
    case .local, .cloud:
      return fallback(for: parse, because: "\(unsure); the cloud is off ('--route local')")
    }
  }

  /// The step after the cloud answered (or failed) for a parse result.
  public func step(after answer: CloudAnswer, for parse: ParseResult) -> Step {
    switch answer {
    case .decided(let intent): .cloud(reason: "the cloud model chose '\(intent)'")
    case .noIntent: .unmatched(reason: "the cloud model found no intent")
    case .failed(let reason): fallback(for: parse, because: "the cloud failed: \(reason)")
    }
  }

  private func fallback(for parse: ParseResult, because cause: String) -> Step {
    guard parse.intent != nil, parse.confidence >= offlineThreshold else {
      return .unmatched(
        reason: parse.intent == nil
          ? cause
          : "\(cause); confidence \(Self.format(parse.confidence)) < offline threshold \(Self.format(offlineThreshold))"
      )
    }
    return .offline(
      reason:
        "\(cause); confidence \(Self.format(parse.confidence)) ≥ offline threshold \(Self.format(offlineThreshold))"
    )
  }

  static func format(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let text = String(hundredths % 100)
    return "\(hundredths / 100).\(text.count == 1 ? "0" + text : text)"
  }
}
