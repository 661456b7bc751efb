import Foundation
import IntentEngine

/// The figures `intent bench` reports for one split of the fixtures.
///
/// Ratios are nil when nothing was there to count (no in-scope lines, nothing routed locally…).
struct BenchReport: Sendable {
  /// Precision, recall and F1 of one label, where the label is what was decided locally.
  struct IntentScore: Sendable, Equatable {
    /// The intent, or nil for "none" (not handled locally / out of scope).
    var intent: IntentID?
    var precision: Double?
    var recall: Double?
    var f1: Double?
    /// How many lines expect this label.
    var support: Int
  }

  /// Counts of expected label (rows) against locally decided label (columns); "none" is last.
  struct Confusion: Sendable, Equatable {
    var labels: [String]
    var counts: [[Int]]
  }

  /// The name used for "no intent" in tables.
  static let noneLabel = "none"
  /// Thresholds of the risk–coverage table: 0.00, 0.05, … 1.00.
  static let tableThresholds: [Double] = (0...20).map { Double($0) / 20 }

  var split: String
  var lineCount: Int
  var inScopeCount: Int
  var outOfScopeCount: Int
  /// In-scope lines whose top-1 intent is right, whether or not routed locally.
  var accuracy: Double?
  /// Of the lines routed locally, the share right (an out-of-scope line routed locally is wrong).
  var precision: Double?
  var localCount: Int
  /// Of the in-scope lines, the share routed locally.
  var coverage: Double?
  /// Of the out-of-scope lines, the share routed locally.
  var falseAccept: Double?
  /// In-scope lines with a `slots` field whose intent is right and slot set equal.
  var slotExact: Double?
  var slotLineCount: Int
  /// Lines with `clauses` whose clause intents (and count) match what was routed locally.
  var multi: Double?
  var multiLineCount: Int
  /// Lines with a `follow_up` whose answer completed the command with the expected slots.
  var followUp: Double?
  var followUpLineCount: Int
  /// Of the lines with a `follow_up`, those handled locally as the expected intent.
  var followUpAskedCount: Int
  /// Expected calibration error over lines with a candidate, 10 equal-width bins.
  var calibrationError: Double?
  var reliability: [CalibrationFitter.ReliabilityBin]
  /// Routing at thresholds 0.00–1.00 in steps of 0.05.
  var riskCoverage: [RoutingPoint]
  /// The global local threshold in force.
  var localThreshold: Double
  var intents: [IntentScore]
  var confusion: Confusion
  /// Latency of `parse` over the split's lines; nil when not measured.
  var latency: LatencySummary?

  /// Computes the figures from per-line outcomes.
  init(
    split: String, outcomes: [BenchOutcome], localThreshold: Double,
    latency: LatencySummary? = nil
  ) {
    self.split = split
    self.localThreshold = localThreshold
    self.latency = latency
    lineCount = outcomes.count
    let inScope = outcomes.filter { $0.expected != nil }
    let outOfScope = outcomes.filter { $0.expected == nil }
    inScopeCount = inScope.count
    outOfScopeCount = outOfScope.count
    accuracy = Self.ratio(inScope.filter(\.isCorrect).count, inScope.count)
    let local = outcomes.filter(\.isLocal)
    localCount = local.count
    precision = Self.ratio(local.filter(\.isCorrectIfLocal).count, local.count)
    coverage = Self.ratio(inScope.filter(\.isLocal).count, inScope.count)
    falseAccept = Self.ratio(outOfScope.filter(\.isLocal).count, outOfScope.count)
    let slotLines = outcomes.compactMap(\.slotMatch)
    slotLineCount = slotLines.count
    slotExact = Self.ratio(slotLines.filter { $0 }.count, slotLines.count)
    let multiLines = outcomes.compactMap(\.multiMatch)
    multiLineCount = multiLines.count
    multi = Self.ratio(multiLines.filter { $0 }.count, multiLines.count)
    let followUps = outcomes.compactMap(\.followUpMatch)
    followUpLineCount = followUps.count
    followUpAskedCount = outcomes.filter { $0.isFollowUpAsked == true }.count
    followUp = Self.ratio(followUps.filter { $0 }.count, followUps.count)

    let candidates = outcomes.filter { $0.predicted != nil }
    let confidences = candidates.map(\.confidence)
    let correct = candidates.map(\.isCorrectIfLocal)
    calibrationError = CalibrationFitter.expectedCalibrationError(
      confidences: confidences, correct: correct)
    reliability = CalibrationFitter.reliabilityBins(confidences: confidences, correct: correct)
    let samples = outcomes.map(\.routingSample)
    riskCoverage = Self.tableThresholds.map {
      CalibrationFitter.routingPoint(at: $0, samples: samples)
    }

    // Labels: every intent expected or decided, in id order, then "none".
    let ids = Set(outcomes.compactMap(\.expected) + outcomes.compactMap(\.decided)).sorted()
    let labels: [IntentID?] = ids.map { Optional($0) } + [nil]
    var index: [IntentID?: Int] = [:]
    for (i, label) in labels.enumerated() { index[label] = i }
    var counts = [[Int]](repeating: [Int](repeating: 0, count: labels.count), count: labels.count)
    for outcome in outcomes {
      if let row = index[outcome.expected], let column = index[outcome.decided] {
        counts[row][column] += 1
      }
    }
    confusion = Confusion(
      labels: labels.map { $0?.rawValue ?? Self.noneLabel }, counts: counts)
    intents = labels.enumerated().map { i, label in
      let truePositives = counts[i][i]
      let predicted = counts.reduce(0) { $0 + $1[i] }
      let support = counts[i].reduce(0, +)
      let precision = Self.ratio(truePositives, predicted)
      let recall = Self.ratio(truePositives, support)
      var f1: Double?
      if let p = precision, let r = recall { f1 = p + r == 0 ? 0 : 2 * p * r / (p + r) }
      return IntentScore(
        intent: label, precision: precision, recall: recall, f1: f1, support: support)
    }
  }

  static func ratio(_ part: Int, _ whole: Int) -> Double? {
    whole == 0 ? nil : Double(part) / Double(whole)
  }
}

/// Latency percentiles and throughput of in-process `parse` calls.
struct LatencySummary: Sendable, Equatable {
  /// How many timed calls the figures come from.
  var samples: Int
  /// Microseconds per call.
  var p50: Double
  var p95: Double
  var p99: Double
  var mean: Double
  var max: Double
  /// Calls per second, from the summed time of the timed calls.
  var throughput: Double
  /// How the timed code was compiled: `debug` figures are several times slower than `release`.
  var build = Self.currentBuild

  /// The configuration this binary was compiled in.
  static var currentBuild: String {
    #if DEBUG
      "debug"
    #else
      "release"
    #endif
  }

  /// Summarises per-call durations in nanoseconds; nil when there are none.
  init?(nanoseconds: [UInt64]) {
    guard !nanoseconds.isEmpty else { return nil }
    let sorted = nanoseconds.sorted()
    func percentile(_ p: Double) -> Double {
      // Nearest rank: the smallest value with at least p of the samples at or below it.
      let rank = Int((p * Double(sorted.count)).rounded(.up))
      return Double(sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]) / 1_000
    }
    let total = sorted.reduce(0.0) { $0 + Double($1) }
    samples = sorted.count
    p50 = percentile(0.50)
    p95 = percentile(0.95)
    p99 = percentile(0.99)
    mean = total / Double(sorted.count) / 1_000
    max = Double(sorted[sorted.count - 1]) / 1_000
    throughput = total > 0 ? Double(sorted.count) / (total / 1e9) : 0
  }
}
