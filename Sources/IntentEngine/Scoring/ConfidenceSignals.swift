import Foundation

/// The general signals a candidate's confidence is read from, as numbers a fitted model weighs.
///
/// Each is a fact about any utterance, not about one sentence: how far the candidate's score
/// stands out, whether the sentence has a known shape, how much of it the evidence explains,
/// whether a spelling correction was needed and whether it asks. Missing details are no signal:
/// confidence is about what the user wants, and a missing detail is asked for (DESIGN).
/// `intent calibrate --method logistic` fits one weight per signal on `dev` lines, real users'
/// sentences included.
public struct ConfidenceSignals: Sendable, Equatable {
  /// The logit of the candidate's softmax share among all candidates and "none", clamped to ±12.
  public var shareLogit: Double
  /// 1 when a sentence pattern matched the utterance or its last clause, else 0.
  public var pattern: Double
  /// The share of the utterance the candidate's evidence explains, in [0, 1].
  public var coverage: Double
  /// The candidate's score minus the best other score (or "none"), clamped to ±10.
  public var margin: Double
  /// 1 when a keyword of the candidate was a spelling correction, else 0.
  public var corrected: Double
  /// 1 when the utterance asks (a question word or mark), else 0.
  public var question: Double

  /// The signal names as `calibration.json` stores their weights, in `values` order.
  public static let names = [
    "share_logit", "pattern", "coverage", "margin", "corrected", "question",
  ]

  /// The signals in `names` order.
  public var values: [Double] {
    [shareLogit, pattern, coverage, margin, corrected, question]
  }

  /// The softmax share the logit was taken from.
  public var share: Double { 1 / (1 + exp(-shareLogit)) }

  /// Creates signals.
  public init(
    shareLogit: Double, pattern: Double, coverage: Double, margin: Double, corrected: Double,
    question: Double
  ) {
    self.shareLogit = shareLogit
    self.pattern = pattern
    self.coverage = coverage
    self.margin = margin
    self.corrected = corrected
    self.question = question
  }

  /// Bound on the share's logit: beyond it the softmax has said all it can.
  static let logitBound = 12.0
  /// Bound on the margin: a lead of ten points is as clear as any.
  static let marginBound = 10.0

  /// Reads the signals of one scored candidate.
  static func of(
    _ candidate: Candidate, share: Double, bestOther: Double, asks: Bool
  ) -> ConfidenceSignals {
    let p = min(max(share, 1e-9), 1 - 1e-9)
    var coverage = 0.0
    var pattern = 0.0
    var corrected = 0.0
    for record in candidate.evidence {
      switch record {
      case .coverage(let explained, _): coverage = explained
      case .pattern: pattern = 1
      case .keyword(let hit, _, _) where hit.isCorrected: corrected = 1
      default: continue
      }
    }
    return ConfidenceSignals(
      shareLogit: min(max(log(p / (1 - p)), -logitBound), logitBound), pattern: pattern,
      coverage: coverage,
      margin: min(max(candidate.score - bestOther, -marginBound), marginBound),
      corrected: corrected, question: asks ? 1 : 0)
  }
}

/// A `logistic` calibration's weights, read once from their names so a parse looks none up.
struct ConfidenceWeights: Sendable {
  var bias: Double
  var shareLogit: Double
  var pattern: Double
  var coverage: Double
  var margin: Double
  var corrected: Double
  var question: Double

  /// The weights of `calibration`, or nil when it does not weigh signals.
  init?(_ calibration: Calibration) {
    guard calibration.method == "logistic", let weights = calibration.weights else { return nil }
    bias = calibration.intercept
    shareLogit = weights["share_logit"] ?? 0
    pattern = weights["pattern"] ?? 0
    coverage = weights["coverage"] ?? 0
    margin = weights["margin"] ?? 0
    corrected = weights["corrected"] ?? 0
    question = weights["question"] ?? 0
  }

  /// The confidence of a candidate with these signals: σ(bias + Σ weight · signal).
  @inline(__always)
  func confidence(for signals: ConfidenceSignals) -> Double {
    let z =
      bias + shareLogit * signals.shareLogit + pattern * signals.pattern + coverage
      * signals.coverage + margin * signals.margin + corrected * signals.corrected + question
      * signals.question
    return 1 / (1 + exp(-z))
  }
}
