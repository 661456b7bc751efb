import Foundation

/// One labelled decision for fitting a calibration: the winner's softmax share and whether it was right.
public struct CalibrationSample: Sendable, Equatable {
  /// The uncalibrated softmax share of the top candidate, in [0, 1].
  public var share: Double
  /// Whether the top candidate was the expected intent.
  public var isCorrect: Bool
  /// Every signal of the top candidate, for the `logistic` method; nil when only the share is known.
  public var signals: ConfidenceSignals?

  /// Creates a sample.
  public init(share: Double, isCorrect: Bool, signals: ConfidenceSignals? = nil) {
    self.share = share
    self.isCorrect = isCorrect
    self.signals = signals
  }

  /// The sample's confidence under `calibration`: from every signal when they are known.
  public func confidence(under calibration: Calibration) -> Double {
    signals.map { calibration.confidence(for: $0) } ?? calibration.confidence(forShare: share)
  }
}

/// One labelled routing decision for choosing the local threshold.
public struct RoutingSample: Sendable, Equatable {
  /// The calibrated confidence of the top candidate.
  public var confidence: Double
  /// Whether handling the line locally would be right: the top intent is the expected one.
  public var isCorrect: Bool
  /// Whether the line has an expected intent (out-of-scope lines have none).
  public var isInScope: Bool
  /// Whether the line may go local at all: an intent was found and no required slot is missing.
  public var isEligible: Bool
  /// A threshold the intent declares for itself, which overrides the global one.
  public var fixedThreshold: Double?
  /// Which set of lines the sample comes from (a fixture folder, a set of real users'
  /// sentences), for a precision every set must reach on its own.
  public var set: Int

  /// Creates a sample.
  public init(
    confidence: Double, isCorrect: Bool, isInScope: Bool, isEligible: Bool = true,
    fixedThreshold: Double? = nil, set: Int = 0
  ) {
    self.confidence = confidence
    self.isCorrect = isCorrect
    self.isInScope = isInScope
    self.isEligible = isEligible
    self.fixedThreshold = fixedThreshold
    self.set = set
  }

  /// Whether the line would be handled locally at `threshold`.
  public func isLocal(at threshold: Double) -> Bool {
    isEligible && confidence >= (fixedThreshold ?? threshold)
  }
}

/// Local precision, coverage and out-of-scope false accepts at one local threshold.
public struct RoutingPoint: Sendable, Equatable {
  /// The local threshold.
  public var threshold: Double
  /// Of the lines routed locally, the share that was right; nil when none was routed locally.
  public var precision: Double?
  /// Of the in-scope lines, the share routed locally (right or not).
  public var coverage: Double
  /// Of the out-of-scope lines, the share routed locally.
  public var falseAccept: Double
  /// Of the in-scope lines, the share not handled locally (sent to the cloud).
  public var cloudShare: Double
  /// How many lines were routed locally.
  public var localCount: Int
}

/// Fits the confidence calibration from labelled decisions and chooses the local threshold.
///
/// Everything here is deterministic: the same samples always give the same parameters, folds and
/// threshold, so `intent calibrate` can be rerun and its output diffed.
public struct CalibrationFitter: Sendable {
  /// The mapping from softmax share to confidence.
  public enum Method: String, Sendable, CaseIterable {
    /// Logistic regression on the logit of the share (two parameters; smooth, hard to overfit).
    case platt
    /// Pool-adjacent-violators regression (a monotone step table; needs more data).
    case isotonic
    /// Logistic regression on every ``ConfidenceSignals`` value (one weight each, lightly
    /// regularised): the margin, pattern, coverage and the rest say more together than the share.
    case logistic
  }

  /// L2 penalty on the logistic weights (not the bias), per sample.
  ///
  /// It keeps weights finite where a signal separates the dev lines perfectly, and small where it
  /// says little; at 1e-3 the 5-fold cross-validated ECE on the dev lines is 0.006.
  public static let logisticPenalty = 1e-3

  /// Number of equal-width bins for the expected calibration error and reliability table.
  public static let binCount = 10

  /// Creates a fitter.
  public init() {}

  // MARK: - Fitting

  /// Returns `base` with the share → confidence mapping refitted on `samples`.
  ///
  /// The softmax settings (`temperature`, `null_score`) and the thresholds are kept.
  public func fitted(
    _ base: Calibration, method: Method, samples: [CalibrationSample]
  ) -> Calibration {
    var result = base
    result.method = method.rawValue
    switch method {
    case .platt:
      let (slope, intercept) = plattParameters(samples)
      result.slope = slope
      result.intercept = intercept
      result.knots = nil
    case .isotonic:
      result.knots = isotonicKnots(samples)
    case .logistic:
      let (weights, bias) = logisticWeights(samples)
      result.weights = Dictionary(
        uniqueKeysWithValues: zip(ConfidenceSignals.names, weights).map { ($0, $1) })
      result.intercept = bias
      result.knots = nil
    }
    return result
  }

  /// Fits `confidence = σ(w · signals + b)` by regularised Newton steps with a line search.
  ///
  /// Samples without signals are left out; with none left, zero weights and a zero bias come back.
  public func logisticWeights(_ samples: [CalibrationSample]) -> (weights: [Double], bias: Double) {
    let rows = samples.compactMap { sample in sample.signals.map { ($0.values, sample.isCorrect) } }
    let d = ConfidenceSignals.names.count
    guard !rows.isEmpty else { return ([Double](repeating: 0, count: d), 0) }
    let n = Double(rows.count)
    let lambda = Self.logisticPenalty * n
    // Parameters: d weights, then the bias.
    var theta = [Double](repeating: 0, count: d + 1)
    func loss(_ theta: [Double]) -> Double {
      var total = 0.0
      for (x, y) in rows {
        var f = theta[d]
        for i in 0..<d { f += theta[i] * x[i] }
        total += (f >= 0 ? f + log1p(exp(-f)) : log1p(exp(f))) - (y ? f : 0)
      }
      for i in 0..<d { total += 0.5 * lambda * theta[i] * theta[i] }
      return total
    }
    var current = loss(theta)
    for _ in 0..<50 {
      var gradient = [Double](repeating: 0, count: d + 1)
      var hessian = [[Double]](repeating: [Double](repeating: 0, count: d + 1), count: d + 1)
      for (x, y) in rows {
        var f = theta[d]
        for i in 0..<d { f += theta[i] * x[i] }
        let p = Self.sigmoid(f)
        let r = p - (y ? 1 : 0)
        let w = max(p * (1 - p), 1e-12)
        for i in 0...d {
          let xi = i == d ? 1 : x[i]
          gradient[i] += r * xi
          for j in 0...i { hessian[i][j] += w * xi * (j == d ? 1 : x[j]) }
        }
      }
      for i in 0...d {
        for j in 0..<i { hessian[j][i] = hessian[i][j] }
        if i < d {
          gradient[i] += lambda * theta[i]
          hessian[i][i] += lambda
        }
        hessian[i][i] += 1e-9
      }
      guard gradient.contains(where: { abs($0) > 1e-7 }),
        let step = Self.solve(hessian, gradient)
      else { break }
      var scale = 1.0
      var improved = false
      while scale >= 1e-8 {
        let next = zip(theta, step).map { $0 - scale * $1 }
        let value = loss(next)
        if value < current {
          theta = next
          current = value
          improved = true
          break
        }
        scale /= 2
      }
      if !improved { break }
    }
    return (Array(theta[0..<d]), theta[d])
  }

  /// Solves `a · x = b` by Gaussian elimination with partial pivoting; nil when `a` is singular.
  static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
    let n = b.count
    var m = a
    var v = b
    for column in 0..<n {
      guard
        let pivot = (column..<n).max(by: { abs(m[$0][column]) < abs(m[$1][column]) }),
        abs(m[pivot][column]) > 1e-15
      else { return nil }
      m.swapAt(column, pivot)
      v.swapAt(column, pivot)
      for row in (column + 1)..<n {
        let factor = m[row][column] / m[column][column]
        guard factor != 0 else { continue }
        for k in column..<n { m[row][k] -= factor * m[column][k] }
        v[row] -= factor * v[column]
      }
    }
    var x = [Double](repeating: 0, count: n)
    for row in stride(from: n - 1, through: 0, by: -1) {
      var sum = v[row]
      for k in (row + 1)..<n { sum -= m[row][k] * x[k] }
      x[row] = sum / m[row][row]
    }
    return x.allSatisfy(\.isFinite) ? x : nil
  }

  /// Fits `confidence = σ(slope · logit(share) + intercept)` by regularised Newton steps.
  ///
  /// Targets are Platt's smoothed labels, (N₊ + 1)/(N₊ + 2) and 1/(N₋ + 2), so perfectly
  /// separable data still gives a finite slope. Without samples the identity (1, 0) is returned.
  public func plattParameters(_ samples: [CalibrationSample]) -> (slope: Double, intercept: Double)
  {
    guard !samples.isEmpty else { return (1, 0) }
    let positives = Double(samples.filter(\.isCorrect).count)
    let negatives = Double(samples.count) - positives
    let high = (positives + 1) / (positives + 2)
    let low = 1 / (negatives + 2)
    let xs = samples.map { Self.logit($0.share) }
    let ts = samples.map { $0.isCorrect ? high : low }

    func loss(_ a: Double, _ b: Double) -> Double {
      var total = 0.0
      for (x, t) in zip(xs, ts) {
        let f = a * x + b
        // log(1 + e^f) − t·f, written to stay finite for large |f|.
        total += (f >= 0 ? f + log1p(exp(-f)) : log1p(exp(f))) - t * f
      }
      return total
    }

    var a = 1.0
    var b = 0.0
    var current = loss(a, b)
    for _ in 0..<100 {
      var g1 = 0.0, g2 = 0.0, h11 = 1e-12, h22 = 1e-12, h21 = 0.0
      for (x, t) in zip(xs, ts) {
        let p = Self.sigmoid(a * x + b)
        let d = p - t
        let w = max(p * (1 - p), 1e-12)
        g1 += x * d
        g2 += d
        h11 += x * x * w
        h22 += w
        h21 += x * w
      }
      if abs(g1) < 1e-9, abs(g2) < 1e-9 { break }
      let det = h11 * h22 - h21 * h21
      guard det.isFinite, abs(det) > 1e-18 else { break }
      let da = -(h22 * g1 - h21 * g2) / det
      let db = -(-h21 * g1 + h11 * g2) / det
      var step = 1.0
      var improved = false
      while step >= 1e-8 {
        let na = a + step * da
        let nb = b + step * db
        let candidate = loss(na, nb)
        if candidate < current + 1e-4 * step * (g1 * da + g2 * db) {
          a = na
          b = nb
          current = candidate
          improved = true
          break
        }
        step /= 2
      }
      if !improved { break }
    }
    return (a, b)
  }

  /// Fits a monotone table by pool-adjacent-violators; knots are (mean share, smoothed accuracy)
  /// per block.
  ///
  /// - Complexity: O(n log n) for n samples.
  public func isotonicKnots(_ samples: [CalibrationSample]) -> [[Double]] {
    guard !samples.isEmpty else { return [] }
    let sorted = samples.sorted { $0.share < $1.share }
    // Equal shares must share a value, so they start as one block.
    var blocks: [(sumX: Double, sumY: Double, weight: Double)] = []
    for sample in sorted {
      let y = sample.isCorrect ? 1.0 : 0.0
      if let last = blocks.last, last.sumX / last.weight == sample.share {
        blocks[blocks.count - 1] = (last.sumX + sample.share, last.sumY + y, last.weight + 1)
      } else {
        blocks.append((sample.share, y, 1))
      }
      while blocks.count > 1 {
        let last = blocks[blocks.count - 1]
        let previous = blocks[blocks.count - 2]
        guard previous.sumY / previous.weight >= last.sumY / last.weight else { break }
        blocks.removeLast(2)
        blocks.append(
          (previous.sumX + last.sumX, previous.sumY + last.sumY, previous.weight + last.weight))
      }
    }
    // Each block's accuracy is smoothed toward one half by one right and one wrong pseudo-answer,
    // so that a block that was always right says 0.998 rather than a certainty it cannot know;
    // a running maximum keeps the table monotone after smoothing.
    var floor = 0.0
    return blocks.map { block in
      floor = max(floor, (block.sumY + 1) / (block.weight + 2))
      return [block.sumX / block.weight, floor]
    }
  }

  // MARK: - Measuring

  /// Computes the expected calibration error: the count-weighted mean |accuracy − confidence| over bins.
  ///
  /// Returns nil when there are no samples.
  public static func expectedCalibrationError(
    confidences: [Double], correct: [Bool], binCount: Int = binCount
  ) -> Double? {
    let bins = reliabilityBins(confidences: confidences, correct: correct, binCount: binCount)
    let total = bins.reduce(0) { $0 + $1.count }
    guard total > 0 else { return nil }
    return bins.reduce(0.0) { sum, bin in
      guard bin.count > 0 else { return sum }
      return sum + Double(bin.count) / Double(total) * abs(bin.accuracy - bin.meanConfidence)
    }
  }

  /// One bin of a reliability table.
  public struct ReliabilityBin: Sendable, Equatable {
    /// Lower edge of the bin (inclusive).
    public var lower: Double
    /// Upper edge of the bin (exclusive, except for the last, which includes 1).
    public var upper: Double
    /// How many decisions fell into the bin.
    public var count: Int
    /// Their mean confidence; 0 when the bin is empty.
    public var meanConfidence: Double
    /// The share of them that was right; 0 when the bin is empty.
    public var accuracy: Double
  }

  /// Groups decisions into equal-width confidence bins.
  public static func reliabilityBins(
    confidences: [Double], correct: [Bool], binCount: Int = binCount
  ) -> [ReliabilityBin] {
    let n = max(binCount, 1)
    var counts = [Int](repeating: 0, count: n)
    var confidenceSums = [Double](repeating: 0, count: n)
    var correctCounts = [Int](repeating: 0, count: n)
    for (confidence, isCorrect) in zip(confidences, correct) where confidence.isFinite {
      let clamped = min(max(confidence, 0), 1)
      let index = min(Int(clamped * Double(n)), n - 1)
      counts[index] += 1
      confidenceSums[index] += clamped
      if isCorrect { correctCounts[index] += 1 }
    }
    return (0..<n).map { i in
      ReliabilityBin(
        lower: Double(i) / Double(n), upper: Double(i + 1) / Double(n), count: counts[i],
        meanConfidence: counts[i] == 0 ? 0 : confidenceSums[i] / Double(counts[i]),
        accuracy: counts[i] == 0 ? 0 : Double(correctCounts[i]) / Double(counts[i]))
    }
  }

  /// Computes the k-fold cross-validated expected calibration error of `method` on `samples`.
  ///
  /// Sample i is held out in fold i mod k, so the folds are deterministic; each held-out sample is
  /// scored by a calibration fitted on the other folds. Returns nil when there are no samples.
  public func crossValidatedError(
    _ samples: [CalibrationSample], method: Method, base: Calibration = .default, folds: Int = 5
  ) -> Double? {
    guard !samples.isEmpty else { return nil }
    let k = max(2, min(folds, samples.count))
    var confidences: [Double] = []
    var correct: [Bool] = []
    for fold in 0..<k {
      let training = samples.indices.filter { $0 % k != fold }.map { samples[$0] }
      let held = samples.indices.filter { $0 % k == fold }.map { samples[$0] }
      let calibration = fitted(base, method: method, samples: training)
      for sample in held {
        confidences.append(sample.confidence(under: calibration))
        correct.append(sample.isCorrect)
      }
    }
    return Self.expectedCalibrationError(confidences: confidences, correct: correct)
  }

  // MARK: - Choosing the threshold

  /// Measures routing at one local threshold.
  public static func routingPoint(at threshold: Double, samples: [RoutingSample]) -> RoutingPoint {
    var local = 0
    var right = 0
    var inScope = 0
    var covered = 0
    var outOfScope = 0
    var accepted = 0
    for sample in samples {
      let isLocal = sample.isLocal(at: threshold)
      if isLocal {
        local += 1
        if sample.isCorrect { right += 1 }
      }
      if sample.isInScope {
        inScope += 1
        if isLocal { covered += 1 }
      } else {
        outOfScope += 1
        if isLocal { accepted += 1 }
      }
    }
    return RoutingPoint(
      threshold: threshold,
      precision: local == 0 ? nil : Double(right) / Double(local),
      coverage: inScope == 0 ? 0 : Double(covered) / Double(inScope),
      falseAccept: outOfScope == 0 ? 0 : Double(accepted) / Double(outOfScope),
      cloudShare: inScope == 0 ? 0 : 1 - Double(covered) / Double(inScope),
      localCount: local)
  }

  /// The thresholds worth trying: every distinct confidence, plus 0 and 1, ascending.
  static func candidateThresholds(_ samples: [RoutingSample]) -> [Double] {
    Array(Set(samples.map(\.confidence).filter(\.isFinite) + [0, 1])).sorted()
  }

  /// Chooses the lowest threshold whose local precision reaches `target`, which maximises coverage;
  /// with `setTarget`, every set of samples that routes anything locally must also reach that
  /// precision on its own.
  ///
  /// Pooled precision is dominated by the largest set: a set of real users' sentences can fall
  /// below what it should reach while the pool holds. Returns nil when no threshold that routes
  /// anything locally meets the goal.
  public func threshold(
    forPrecision target: Double, setTarget: Double? = nil, samples: [RoutingSample]
  ) -> RoutingPoint? {
    // One sweep upwards: the samples that leave the local share as the threshold passes their
    // confidence are taken out of the counts, so each candidate costs what leaves at it.
    let sets = (samples.map(\.set).max() ?? 0) + 1
    var local = [Int](repeating: 0, count: sets)
    var right = [Int](repeating: 0, count: sets)
    var leaving: [RoutingSample] = []
    for sample in samples where sample.isEligible && !sample.confidence.isNaN {
      if let fixed = sample.fixedThreshold {
        guard sample.confidence >= fixed else { continue }
      } else {
        leaving.append(sample)
      }
      local[sample.set] += 1
      if sample.isCorrect { right[sample.set] += 1 }
    }
    leaving.sort { $0.confidence < $1.confidence }
    var next = 0
    for candidate in Self.candidateThresholds(samples) {
      while next < leaving.count, leaving[next].confidence < candidate {
        local[leaving[next].set] -= 1
        if leaving[next].isCorrect { right[leaving[next].set] -= 1 }
        next += 1
      }
      let total = local.reduce(0, +)
      guard total > 0, Double(right.reduce(0, +)) / Double(total) >= target else { continue }
      if let setTarget,
        local.indices.contains(where: {
          local[$0] > 0 && Double(right[$0]) / Double(local[$0]) < setTarget
        })
      {
        continue
      }
      return Self.routingPoint(at: candidate, samples: samples)
    }
    return nil
  }

  /// Whether every set of samples that routes anything locally at `threshold` reaches local
  /// precision `target` on its own.
  public static func everySetReaches(
    _ target: Double, at threshold: Double, samples: [RoutingSample]
  ) -> Bool {
    var local: [Int: Int] = [:]
    var right: [Int: Int] = [:]
    for sample in samples where sample.isLocal(at: threshold) {
      local[sample.set, default: 0] += 1
      if sample.isCorrect { right[sample.set, default: 0] += 1 }
    }
    return local.allSatisfy { Double(right[$0.key] ?? 0) / Double($0.value) >= target }
  }

  /// Chooses the highest threshold that sends at most `budget` of the in-scope lines to the cloud.
  ///
  /// Out-of-scope lines are meant to go to the cloud, so they do not count against the budget.
  /// Returns nil when even threshold 0 sends more (lines without a confident-enough candidate).
  public func threshold(forCloudBudget budget: Double, samples: [RoutingSample]) -> RoutingPoint? {
    for candidate in Self.candidateThresholds(samples).reversed() {
      let point = Self.routingPoint(at: candidate, samples: samples)
      if point.cloudShare <= budget + 1e-12 { return point }
    }
    return nil
  }

  // MARK: - Helpers

  static func logit(_ p: Double) -> Double {
    let clamped = min(max(p, 1e-9), 1 - 1e-9)
    return log(clamped / (1 - clamped))
  }

  static func sigmoid(_ x: Double) -> Double {
    x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x))
  }
}
