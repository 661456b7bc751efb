import Foundation
import IntentEngine
import Testing

struct CalibrationFitterTests {
  let fitter = CalibrationFitter()

  /// Samples whose true accuracy at share s is s², so the identity mapping is overconfident.
  static let overconfident: [CalibrationSample] = (0..<400).map { i in
    let share = 0.05 + 0.9 * Double(i % 100) / 99
    // A deterministic pattern: among the 4 samples at each share, round(4·s²) are right.
    let rightCount = Int((4 * share * share).rounded())
    return CalibrationSample(share: share, isCorrect: i / 100 < rightCount)
  }

  @Test func expectedCalibrationErrorOfAPerfectTableIsZero() throws {
    // Bin 0.9–1.0: 10 answers at 0.9, 9 right. Bin 0.5–0.6: 4 at 0.5, 2 right.
    let confidences = [Double](repeating: 0.9, count: 10) + [Double](repeating: 0.5, count: 4)
    let correct = (0..<10).map { $0 < 9 } + [true, true, false, false]
    let ece = try #require(
      CalibrationFitter.expectedCalibrationError(confidences: confidences, correct: correct))
    #expect(abs(ece) < 1e-12)
  }

  @Test func expectedCalibrationErrorWeighsBinsByCount() throws {
    // 3 answers at 0.95, all wrong (gap 0.95); 1 answer at 0.15, right (gap 0.85).
    let ece = try #require(
      CalibrationFitter.expectedCalibrationError(
        confidences: [0.95, 0.95, 0.95, 0.15], correct: [false, false, false, true]))
    #expect(abs(ece - (3 * 0.95 + 0.85) / 4) < 1e-12)
  }

  @Test func expectedCalibrationErrorOfNothingIsUndefined() {
    #expect(CalibrationFitter.expectedCalibrationError(confidences: [], correct: []) == nil)
  }

  @Test func reliabilityBinsPutOneInTheLastBin() {
    let bins = CalibrationFitter.reliabilityBins(
      confidences: [1.0, 0.0, 0.35], correct: [true, false, true])
    #expect(bins.count == 10)
    #expect(bins[9].count == 1)
    #expect(bins[0].count == 1)
    #expect(bins[3].count == 1)
    #expect(bins[3].accuracy == 1)
  }

  @Test func plattFitLowersCalibrationErrorOfOverconfidentShares() throws {
    let samples = Self.overconfident
    let before = try #require(
      CalibrationFitter.expectedCalibrationError(
        confidences: samples.map(\.share), correct: samples.map(\.isCorrect)))
    let calibration = fitter.fitted(.default, method: .platt, samples: samples)
    let after = try #require(
      CalibrationFitter.expectedCalibrationError(
        confidences: samples.map { calibration.confidence(forShare: $0.share) },
        correct: samples.map(\.isCorrect)))
    #expect(after < before / 2)
    #expect(calibration.slope > 1)
    #expect(calibration.method == "platt")
  }

  @Test func plattFitKeepsSoftmaxSettingsAndThresholds() {
    var base = Calibration.default
    base.temperature = 0.7
    base.nullScore = 3.5
    base.localThreshold = 0.85
    let calibration = fitter.fitted(base, method: .platt, samples: Self.overconfident)
    #expect(calibration.temperature == 0.7)
    #expect(calibration.nullScore == 3.5)
    #expect(calibration.localThreshold == 0.85)
  }

  @Test func plattFitOnSeparableDataStaysFinite() {
    let samples =
      (0..<50).map { CalibrationSample(share: 0.9 + Double($0) / 1000, isCorrect: true) }
      + (0..<50).map { CalibrationSample(share: 0.1 + Double($0) / 1000, isCorrect: false) }
    let (slope, intercept) = fitter.plattParameters(samples)
    #expect(slope.isFinite && intercept.isFinite)
    #expect(slope > 0)
  }

  @Test func plattFitWithoutSamplesIsTheIdentity() {
    let (slope, intercept) = fitter.plattParameters([])
    #expect(slope == 1 && intercept == 0)
  }

  @Test func isotonicFitPoolsViolators() {
    // Accuracy by share: 0.1 → right, 0.2 → wrong, 0.3 → wrong, 0.4 → right.
    let samples = [
      CalibrationSample(share: 0.1, isCorrect: true),
      CalibrationSample(share: 0.2, isCorrect: false),
      CalibrationSample(share: 0.3, isCorrect: false),
      CalibrationSample(share: 0.4, isCorrect: true),
    ]
    let knots = fitter.isotonicKnots(samples)
    // The first three pool to mean share 0.2, accuracy 1/3, smoothed to (1+1)/(3+2); the last
    // stays, one right answer smoothed to (1+1)/(1+2), never a certainty.
    #expect(knots.count == 2)
    #expect(abs(knots[0][0] - 0.2) < 1e-12)
    #expect(abs(knots[0][1] - 2.0 / 5) < 1e-12)
    #expect(knots[1][0] == 0.4)
    #expect(abs(knots[1][1] - 2.0 / 3) < 1e-12)
  }

  @Test func isotonicKnotsAreMonotone() {
    let knots = fitter.isotonicKnots(Self.overconfident)
    for (a, b) in zip(knots, knots.dropFirst()) {
      #expect(a[0] < b[0])
      #expect(a[1] <= b[1])
    }
    let calibration = fitter.fitted(.default, method: .isotonic, samples: Self.overconfident)
    #expect(calibration.method == "isotonic")
    #expect(calibration.problem() == nil)
  }

  @Test func crossValidatedErrorIsDeterministicAndSmallAfterFitting() throws {
    let first = try #require(fitter.crossValidatedError(Self.overconfident, method: .platt))
    let second = try #require(fitter.crossValidatedError(Self.overconfident, method: .platt))
    #expect(first == second)
    #expect(first < 0.08)
    #expect(fitter.crossValidatedError([], method: .isotonic) == nil)
  }

  static let routing: [RoutingSample] = [
    RoutingSample(confidence: 0.95, isCorrect: true, isInScope: true),
    RoutingSample(confidence: 0.90, isCorrect: true, isInScope: true),
    RoutingSample(confidence: 0.85, isCorrect: false, isInScope: false),
    RoutingSample(confidence: 0.80, isCorrect: true, isInScope: true),
    RoutingSample(confidence: 0.40, isCorrect: false, isInScope: true),
    RoutingSample(confidence: 0.30, isCorrect: false, isInScope: false),
  ]

  @Test func routingPointCountsPrecisionCoverageAndFalseAccepts() throws {
    let point = CalibrationFitter.routingPoint(at: 0.8, samples: Self.routing)
    #expect(point.localCount == 4)
    #expect(try #require(point.precision) == 0.75)
    #expect(point.coverage == 0.75)
    #expect(point.falseAccept == 0.5)
    #expect(point.cloudShare == 0.25)
  }

  @Test func thresholdForPrecisionMaximisesCoverage() throws {
    let point = try #require(fitter.threshold(forPrecision: 0.99, samples: Self.routing))
    #expect(point.threshold == 0.90)
    #expect(point.coverage == 0.5)
    #expect(fitter.threshold(forPrecision: 0.99, samples: [Self.routing[2]]) == nil)
  }

  @Test func eachSetIsHeldToItsOwnPrecisionFloor() throws {
    // A large precise set and a small one whose lines go wrong at 0.6 and below: the pool
    // reaches 90% at every threshold, the small set only above 0.6.
    var samples = (0..<18).map {
      RoutingSample(confidence: 0.5 + Double($0) / 40, isCorrect: true, isInScope: true, set: 0)
    }
    samples += [
      RoutingSample(confidence: 0.9, isCorrect: true, isInScope: true, set: 1),
      RoutingSample(confidence: 0.8, isCorrect: true, isInScope: true, set: 1),
      RoutingSample(confidence: 0.6, isCorrect: false, isInScope: true, set: 1),
      RoutingSample(confidence: 0.55, isCorrect: false, isInScope: false, set: 1),
    ]
    let pooled = try #require(fitter.threshold(forPrecision: 0.9, samples: samples))
    #expect(pooled.threshold == 0)
    let floored = try #require(
      fitter.threshold(forPrecision: 0.9, setTarget: 0.9, samples: samples))
    #expect(floored.threshold == 0.625)
    #expect(CalibrationFitter.everySetReaches(0.9, at: floored.threshold, samples: samples))
    #expect(!CalibrationFitter.everySetReaches(0.9, at: pooled.threshold, samples: samples))
    // A floor no threshold reaches chooses none.
    let wrong = [RoutingSample(confidence: 0.99, isCorrect: false, isInScope: true, set: 1)]
    #expect(fitter.threshold(forPrecision: 0.5, setTarget: 0.9, samples: samples + wrong) == nil)
  }

  @Test func thresholdForCloudBudgetSendsAtMostTheBudget() throws {
    let point = try #require(fitter.threshold(forCloudBudget: 0.25, samples: Self.routing))
    #expect(point.threshold == 0.80)
    #expect(point.cloudShare <= 0.25)
  }

  @Test func ineligibleLinesNeverGoLocal() {
    let sample = RoutingSample(
      confidence: 0.99, isCorrect: true, isInScope: true, isEligible: false)
    #expect(!sample.isLocal(at: 0))
    let fixed = RoutingSample(
      confidence: 0.8, isCorrect: true, isInScope: true, fixedThreshold: 0.9)
    #expect(!fixed.isLocal(at: 0.5))
  }
}
