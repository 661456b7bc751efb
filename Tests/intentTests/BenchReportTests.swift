import Foundation
import IntentEngine
import Testing

@testable import intent

struct BenchReportTests {
  /// Ten lines with known figures.
  ///
  /// The lines:
  /// - 6 in scope: 4 right and local, 1 wrong and local, 1 right but sent to the fallback;
  /// - 4 out of scope: 1 accepted locally, 3 not.
  static let outcomes: [BenchOutcome] = [
    BenchOutcome(
      expected: "timer.start", predicted: "timer.start", confidence: 0.95, isLocal: true,
      slotMatch: true),
    BenchOutcome(
      expected: "timer.start", predicted: "timer.start", confidence: 0.92, isLocal: true,
      slotMatch: false),
    BenchOutcome(
      expected: "weather.query", predicted: "weather.query", confidence: 0.91, isLocal: true),
    BenchOutcome(
      expected: "weather.query", predicted: "weather.query", confidence: 0.97, isLocal: true),
    BenchOutcome(
      expected: "weather.query", predicted: "timer.start", confidence: 0.85, isLocal: true,
      slotMatch: false),
    BenchOutcome(
      expected: "timer.start", predicted: "timer.start", confidence: 0.40, isLocal: false,
      slotMatch: true),
    BenchOutcome(expected: nil, predicted: "weather.query", confidence: 0.88, isLocal: true),
    BenchOutcome(expected: nil, predicted: "weather.query", confidence: 0.30, isLocal: false),
    BenchOutcome(expected: nil, predicted: nil, confidence: 0, isLocal: false),
    BenchOutcome(expected: nil, predicted: nil, confidence: 0, isLocal: false),
  ]

  let report = BenchReport(split: "test", outcomes: Self.outcomes, localThreshold: 0.8)

  @Test func countsLinesByScope() {
    #expect(report.lineCount == 10)
    #expect(report.inScopeCount == 6)
    #expect(report.outOfScopeCount == 4)
    #expect(report.localCount == 6)
  }

  @Test func accuracyCountsTopOneWhateverTheRoute() {
    #expect(report.accuracy == 5.0 / 6)
  }

  @Test func precisionCountsOutOfScopeLinesRoutedLocallyAsWrong() {
    // Local: 4 right, 1 wrong intent, 1 out-of-scope accept.
    #expect(report.precision == 4.0 / 6)
  }

  @Test func coverageIsTheShareOfInScopeLinesRoutedLocally() {
    #expect(report.coverage == 5.0 / 6)
  }

  @Test func falseAcceptIsTheShareOfOutOfScopeLinesRoutedLocally() {
    #expect(report.falseAccept == 1.0 / 4)
  }

  @Test func slotExactMatchCountsOnlyLinesThatScoreSlots() {
    #expect(report.slotLineCount == 4)
    #expect(report.slotExact == 2.0 / 4)
  }

  @Test func multiIsUndefinedWithoutMultiLines() {
    #expect(report.multi == nil)
    #expect(report.multiLineCount == 0)
  }

  @Test func multiComparesClauseIntentsAndCount() {
    let outcomes = [
      BenchOutcome(
        expected: "memo.create", predicted: "memo.create", confidence: 0.9, isLocal: true,
        expectedClauses: ["memo.create", "timer.start"],
        predictedClauses: ["memo.create", "timer.start"]),
      BenchOutcome(
        expected: "memo.create", predicted: "memo.create", confidence: 0.9, isLocal: true,
        expectedClauses: ["memo.create", "timer.start"], predictedClauses: ["memo.create"]),
      BenchOutcome(
        expected: "weather.query", predicted: "weather.query", confidence: 0.9, isLocal: true,
        expectedClauses: ["weather.query", "reminder.create"],
        predictedClauses: ["reminder.create", "weather.query"]),
    ]
    let report = BenchReport(split: "all", outcomes: outcomes, localThreshold: 0.8)
    #expect(report.multiLineCount == 3)
    #expect(report.multi == 1.0 / 3)
  }

  @Test func confusionRowsAreExpectedAndColumnsDecidedLocally() {
    #expect(report.confusion.labels == ["timer.start", "weather.query", "none"])
    #expect(
      report.confusion.counts == [
        [2, 0, 1],  // timer.start: 2 right, 1 sent to the fallback
        [1, 2, 0],  // weather.query: 1 taken for a timer
        [0, 1, 3],  // none: 1 false accept
      ])
  }

  @Test func perIntentScoresFollowTheConfusionTable() throws {
    let timer = try #require(report.intents.first { $0.intent == "timer.start" })
    #expect(timer.precision == 2.0 / 3)
    #expect(timer.recall == 2.0 / 3)
    #expect(abs(try #require(timer.f1) - 2.0 / 3) < 1e-12)
    #expect(timer.support == 3)
    let none = try #require(report.intents.first { $0.intent == nil })
    #expect(none.precision == 3.0 / 4)
    #expect(none.recall == 3.0 / 4)
  }

  @Test func calibrationErrorCoversLinesWithACandidate() throws {
    // Bins: 0.9–1.0 holds 0.95, 0.92, 0.91, 0.97 (all right); 0.8–0.9 holds 0.85, 0.88 (wrong);
    // 0.4–0.5 holds 0.40 (right); 0.3–0.4 holds 0.30 (wrong).
    let gaps = [
      (4.0, abs(1 - (0.95 + 0.92 + 0.91 + 0.97) / 4)), (2.0, (0.85 + 0.88) / 2),
      (1.0, 1 - 0.40), (1.0, 0.30),
    ]
    let expected = gaps.reduce(0) { $0 + $1.0 * $1.1 } / 8
    #expect(abs(try #require(report.calibrationError) - expected) < 1e-12)
    #expect(report.reliability.reduce(0) { $0 + $1.count } == 8)
  }

  @Test func riskCoverageTableRunsFromZeroToOne() throws {
    #expect(report.riskCoverage.count == 21)
    #expect(report.riskCoverage.first?.threshold == 0)
    #expect(report.riskCoverage.last?.threshold == 1)
    let at90 = try #require(report.riskCoverage.first { abs($0.threshold - 0.9) < 1e-9 })
    #expect(at90.precision == 1)
    #expect(at90.coverage == 4.0 / 6)
    #expect(at90.falseAccept == 0)
  }

  @Test func emptyReportsHaveNoRatios() {
    let empty = BenchReport(split: "dev", outcomes: [], localThreshold: 0.8)
    #expect(empty.precision == nil && empty.coverage == nil && empty.calibrationError == nil)
  }

  @Test func latencyPercentilesUseNearestRank() throws {
    let summary = try #require(LatencySummary(nanoseconds: (1...100).map { UInt64($0) * 1_000 }))
    #expect(summary.p50 == 50)
    #expect(summary.p95 == 95)
    #expect(summary.p99 == 99)
    #expect(summary.max == 100)
    #expect(abs(summary.throughput - 100 / (5_050 * 1e-6)) < 1e-6)
    #expect(LatencySummary(nanoseconds: []) == nil)
  }

  @Test func slotsCompareNumbersNumerically() {
    let expected = JSONValue.object([("duration", .number(600)), ("text", .string("买牛奶"))])
    #expect(
      BenchOutcome.differences(
        expected: expected,
        actual: .object([("duration", .string("600")), ("text", .string(" 买牛奶"))])
      ).isEmpty)
    #expect(
      BenchOutcome.differences(
        expected: expected,
        actual: .object([("duration", .number(600.0000000001)), ("text", .string("买牛奶"))])
      ).isEmpty)
  }

  @Test func slotsMustBeTheCompleteSet() {
    let expected = JSONValue.object([("duration", .number(600))])
    let differences = BenchOutcome.differences(
      expected: expected,
      actual: .object([("duration", .number(300)), ("text", .string("oven"))]))
    #expect(
      differences == [
        "slot 'duration' is 300, expected 600", "slot 'text' = \"oven\" not expected",
      ])
    #expect(
      BenchOutcome.differences(expected: .object([]), actual: .object([])).isEmpty)
  }

  @Test func thresholdsReportEveryBrokenFigure() throws {
    let thresholds = try BenchThresholds(
      data: Data(
        #"{"split": "test", "precision": 0.9, "coverage": 0.8, "false_accept": 0.1, "multi": 0.9}"#
          .utf8),
      path: "thresholds.json")
    let violations = thresholds.violations(of: report)
    #expect(violations.map(\.limit.metric) == ["precision", "false_accept"])
    #expect(violations[0].description == "precision 66.7% is below the minimum 90.0%")
    #expect(violations[1].description == "false_accept 25.0% is above the maximum 10.0%")
    #expect(thresholds.unmeasured(in: report) == ["multi"])
  }

  @Test func thresholdsRejectUnknownFigures() {
    #expect(throws: JSONLines.LineError.self) {
      try BenchThresholds(data: Data(#"{"precison": 0.9}"#.utf8), path: "t.json")
    }
    do {
      _ = try BenchThresholds(data: Data(#"{"precison": 0.9}"#.utf8), path: "t.json")
    } catch {
      #expect(error.message == "t.json: unknown figure 'precison'; did you mean 'precision'?")
    }
  }
}
