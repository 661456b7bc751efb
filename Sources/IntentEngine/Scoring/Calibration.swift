import Foundation

/// Turns raw evidence scores into confidences that mean what they say, plus the routing thresholds.
///
/// Scores of all candidates and a "none of these" score go through a softmax; the winner's share
/// is then mapped by Platt scaling (or an isotonic table) fitted on labelled `dev` fixtures, so
/// that answers given at 0.9 are right about 90% of the time. `intent calibrate` rewrites it.
public struct Calibration: Sendable, Codable, Equatable {
  /// How a candidate becomes a confidence: `platt` or `isotonic` map the softmax share;
  /// `logistic` weighs every ``ConfidenceSignals`` value.
  public var method: String
  /// Platt slope applied to the logit of the softmax share.
  public var slope: Double
  /// Platt intercept.
  public var intercept: Double
  /// Isotonic table of (share, confidence) knots, ascending; used when `method` is `isotonic`.
  public var knots: [[Double]]?
  /// For `logistic`: one weight per signal name (``ConfidenceSignals/names``); `intercept` is the bias.
  public var weights: [String: Double]?
  /// Softmax temperature: larger spreads confidence over more candidates.
  public var temperature: Double
  /// The score of "none of these intents"; a candidate must beat it to be believed.
  public var nullScore: Double
  /// Confidence at or above which an utterance is handled on the device.
  public var localThreshold: Double
  /// Confidence at or above which the local guess is used when the cloud is unavailable.
  public var offlineThreshold: Double
  /// The command and inputs the calibration was fitted with; nil when not recorded.
  public var provenance: Provenance?

  /// How a calibration file was made, so that running ``command`` again on the same inputs
  /// reproduces it.
  public struct Provenance: Sendable, Codable, Equatable {
    /// One file the fit read, with its SHA-256 digest.
    public struct Input: Sendable, Codable, Equatable {
      /// The path as the command was given it, relative to where it ran.
      public var path: String
      /// The file's SHA-256 digest, 64 lowercase hexadecimal digits.
      public var sha256: String

      /// Creates an input record.
      public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
      }
    }

    /// The command line, such as `intent calibrate --write`.
    public var command: String
    /// Every fixture file read, in the order read, then the grammars in force.
    public var inputs: [Input]

    /// Creates a provenance record.
    public init(command: String, inputs: [Input]) {
      self.command = command
      self.inputs = inputs
    }
  }

  /// Parameters used when no calibration file is present.
  ///
  /// The softmax settings were chosen by hand on the `dev` fixtures; `intent calibrate` replaces slope and intercept with fitted ones.
  public static let `default` = Calibration(
    method: "platt", slope: 1, intercept: 0, knots: nil, temperature: 1.0, nullScore: 2.0,
    localThreshold: 0.8, offlineThreshold: 0.5)

  /// Creates a calibration.
  public init(
    method: String, slope: Double, intercept: Double, knots: [[Double]]?, temperature: Double,
    nullScore: Double, localThreshold: Double, offlineThreshold: Double,
    provenance: Provenance? = nil
  ) {
    self.method = method
    self.slope = slope
    self.intercept = intercept
    self.knots = knots
    self.temperature = temperature
    self.nullScore = nullScore
    self.localThreshold = localThreshold
    self.offlineThreshold = offlineThreshold
    self.provenance = provenance
  }

  private enum CodingKeys: String, CodingKey {
    case method, slope, intercept, knots, weights, temperature
    case nullScore = "null_score"
    case localThreshold = "local_threshold"
    case offlineThreshold = "offline_threshold"
    case provenance = "made_by"
  }

  /// The softmax shares of `scores` next to the null score, in the same order.
  public func shares(of scores: [Double]) -> [Double] {
    let t = max(temperature, 1e-6)
    let top = max(scores.max() ?? nullScore, nullScore)
    let exps = scores.map { exp(($0 - top) / t) }
    let null = exp((nullScore - top) / t)
    let total = exps.reduce(null, +)
    return exps.map { $0 / total }
  }

  /// The calibrated confidence of a candidate with these signals.
  ///
  /// The `logistic` method weighs every signal; the others read the share alone.
  public func confidence(for signals: ConfidenceSignals) -> Double {
    ConfidenceWeights(self)?.confidence(for: signals) ?? confidence(forShare: signals.share)
  }

  /// The calibrated confidence for a softmax share.
  public func confidence(forShare share: Double) -> Double {
    let p = min(max(share, 1e-9), 1 - 1e-9)
    switch method {
    case "isotonic":
      guard let knots, !knots.isEmpty else { return p }
      return Self.interpolate(p, knots)
    default:
      let logit = log(p / (1 - p))
      return 1 / (1 + exp(-(slope * logit + intercept)))
    }
  }

  static func interpolate(_ x: Double, _ knots: [[Double]]) -> Double {
    var previous: (Double, Double)?
    for knot in knots where knot.count == 2 {
      let point = (knot[0], knot[1])
      guard x > point.0 else {
        guard let a = previous else { return point.1 }
        let span = point.0 - a.0
        return span <= 0 ? point.1 : a.1 + (point.1 - a.1) * (x - a.0) / span
      }
      previous = point
    }
    return previous?.1 ?? x
  }

  /// Checks that the values are usable; returns a message naming the first that is not.
  public func problem() -> String? {
    guard ["platt", "isotonic", "logistic"].contains(method) else {
      return "calibration method '\(method)' is unknown; use 'platt', 'isotonic' or 'logistic'"
    }
    if method == "logistic" {
      guard let weights else { return "calibration method 'logistic' needs 'weights'" }
      for (name, value) in weights.sorted(by: { $0.key < $1.key }) {
        guard ConfidenceSignals.names.contains(name) else {
          return "calibration weight '\(name)' names no signal; the signals are "
            + ConfidenceSignals.names.joined(separator: ", ")
        }
        guard value.isFinite else { return "calibration weight '\(name)' is not a finite number" }
      }
    }
    for (name, value) in [
      ("slope", slope), ("intercept", intercept), ("temperature", temperature),
      ("null_score", nullScore),
    ] where !value.isFinite {
      return "calibration '\(name)' is not a finite number"
    }
    guard temperature > 0 else { return "calibration 'temperature' must be positive" }
    for (name, value) in [
      ("local_threshold", localThreshold), ("offline_threshold", offlineThreshold),
    ]
    where !(0...1).contains(value) {
      return "calibration '\(name)' must be between 0 and 1"
    }
    return nil
  }
}
