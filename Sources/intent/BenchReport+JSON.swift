import Foundation
import IntentEngine

extension BenchReport {
  /// The report as the `intent bench --json` object.
  ///
  /// Schema (ratios in [0, 1], `null` when nothing was there to count; times in microseconds):
  /// ```
  /// split              "dev" | "test" | "all"
  /// lines, in_scope, out_of_scope, local          line counts
  /// accuracy           in-scope top-1 accuracy
  /// precision          local precision: of lines routed locally, the share right
  /// coverage           local coverage: of in-scope lines, the share routed locally
  /// false_accept       of out-of-scope lines, the share routed locally
  /// slot_exact, slot_lines     slot exact-match and how many lines score slots
  /// multi, multi_lines         multi-command lines split and routed right, and how many
  /// follow_up, follow_up_lines lines whose follow-up answer completed the command with the
  ///                            expected slots (asked locally, answered in the same session), and
  ///                            how many lines have a follow-up
  /// follow_up_asked            of those, the lines handled locally as the expected intent
  /// calibration_error  expected calibration error (10 bins), same as calibration.ece
  /// calibration        {ece, bins: [{lower, upper, count, confidence, accuracy}]}
  /// local_threshold    the global local threshold in force
  /// risk_coverage      [{threshold, precision, coverage, false_accept, local}] for 0.00…1.00
  /// intents            [{intent (null = none), precision, recall, f1, support}]
  /// confusion          {labels: [...], counts: [[...]]}: rows expected, columns decided locally
  /// p50, p95, p99, throughput  latency per parse (µs) and parses per second; null if not measured
  /// latency            {samples, p50, p95, p99, mean, max, throughput, build} or null
  /// thresholds         {file, split, passed, violations: [{metric, value, limit, kind}],
  ///                     unmeasured: [...]} or null when no thresholds file is in force
  /// failures           [{location, text, expected, got, confidence, route, problems, explanation}]
  ///                    only with --failures
  /// ```
  func json() -> JSONValue {
    func number(_ value: Double?) -> JSONValue {
      value.map { .number(BenchFormat.rounded($0)) } ?? .null
    }
    var members: [(String, JSONValue)] = [
      ("split", .string(split)),
      ("lines", .number(Double(lineCount))),
      ("in_scope", .number(Double(inScopeCount))),
      ("out_of_scope", .number(Double(outOfScopeCount))),
      ("local", .number(Double(localCount))),
      ("accuracy", number(accuracy)),
      ("precision", number(precision)),
      ("coverage", number(coverage)),
      ("false_accept", number(falseAccept)),
      ("slot_exact", number(slotExact)),
      ("slot_lines", .number(Double(slotLineCount))),
      ("multi", number(multi)),
      ("multi_lines", .number(Double(multiLineCount))),
      ("follow_up", number(followUp)),
      ("follow_up_lines", .number(Double(followUpLineCount))),
      ("follow_up_asked", .number(Double(followUpAskedCount))),
      ("calibration_error", number(calibrationError)),
      (
        "calibration",
        .object([
          ("ece", number(calibrationError)),
          (
            "bins",
            .array(
              reliability.map { bin in
                .object([
                  ("lower", .number(bin.lower)), ("upper", .number(bin.upper)),
                  ("count", .number(Double(bin.count))),
                  ("confidence", number(bin.count == 0 ? nil : bin.meanConfidence)),
                  ("accuracy", number(bin.count == 0 ? nil : bin.accuracy)),
                ])
              })
          ),
        ])
      ),
      ("local_threshold", number(localThreshold)),
      (
        "risk_coverage",
        .array(
          riskCoverage.map { point in
            .object([
              ("threshold", number(point.threshold)), ("precision", number(point.precision)),
              ("coverage", number(point.coverage)), ("false_accept", number(point.falseAccept)),
              ("local", .number(Double(point.localCount))),
            ])
          })
      ),
      (
        "intents",
        .array(
          intents.map { score in
            .object([
              ("intent", score.intent.map { .string($0.rawValue) } ?? .null),
              ("precision", number(score.precision)), ("recall", number(score.recall)),
              ("f1", number(score.f1)), ("support", .number(Double(score.support))),
            ])
          })
      ),
      (
        "confusion",
        .object([
          ("labels", .array(confusion.labels.map { .string($0) })),
          ("counts", .array(confusion.counts.map { .array($0.map { .number(Double($0)) }) })),
        ])
      ),
      ("p50", number(latency?.p50)),
      ("p95", number(latency?.p95)),
      ("p99", number(latency?.p99)),
      ("throughput", number(latency?.throughput.rounded())),
    ]
    if let latency {
      members.append(
        (
          "latency",
          .object([
            ("samples", .number(Double(latency.samples))), ("p50", number(latency.p50)),
            ("p95", number(latency.p95)), ("p99", number(latency.p99)),
            ("mean", number(latency.mean)), ("max", number(latency.max)),
            ("throughput", .number(latency.throughput.rounded())),
            ("build", .string(latency.build)),
          ])
        ))
    } else {
      members.append(("latency", .null))
    }
    return .object(members)
  }
}
