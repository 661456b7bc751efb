import Foundation
import IntentEngine

/// The figures a bench run must reach, kept with the fixtures (`Fixtures/thresholds.json`).
///
/// ```json
/// {"split": "test", "precision": 0.99, "coverage": 0.9, "false_accept": 0.01,
///  "slot_exact": 0.95, "calibration_error": 0.05, "multi": 0.9}
/// ```
/// `false_accept` and `calibration_error` are maxima; every other figure is a minimum. A key may
/// be left out to leave that figure unchecked.
struct BenchThresholds: Sendable, Equatable {
  /// One checked figure.
  struct Limit: Sendable, Equatable {
    /// The key in the file and in `--json` output, such as `precision`.
    var metric: String
    var value: Double
    /// Whether the figure must stay at or below `value` (else at or above).
    var isMaximum: Bool
  }

  /// A figure that broke its limit.
  struct Violation: Sendable, Equatable {
    var limit: Limit
    var actual: Double

    var description: String {
      let relation = limit.isMaximum ? "above the maximum" : "below the minimum"
      return
        "\(limit.metric) \(BenchFormat.figure(actual, metric: limit.metric)) is \(relation) \(BenchFormat.figure(limit.value, metric: limit.metric))"
    }
  }

  /// Minimum figures, by key.
  static let minimumKeys = ["accuracy", "precision", "coverage", "slot_exact", "multi"]
  /// Maximum figures, by key.
  static let maximumKeys = ["false_accept", "calibration_error"]

  /// The split the limits apply to: `dev`, `test` or `all`.
  var split: String
  var limits: [Limit]

  /// Reads a thresholds file; throws a message naming the file and the problem.
  init(data: Data, path: String) throws(JSONLines.LineError) {
    let object: JSONValue
    do {
      object = try JSONValue(parsing: data)
    } catch {
      throw JSONLines.LineError(message: "\(path): not valid JSON")
    }
    guard case .object(let members) = object else {
      throw JSONLines.LineError(message: "\(path): expected a JSON object of figures")
    }
    split = "test"
    limits = []
    let known = ["split"] + Self.minimumKeys + Self.maximumKeys
    for (key, value) in members {
      if key == "split" {
        guard let name = value.stringValue, BenchCommand.splits.contains(name) else {
          throw JSONLines.LineError(
            message: "\(path): 'split' must be \"dev\", \"test\" or \"all\"")
        }
        split = name
        continue
      }
      guard known.contains(key) else {
        let hint =
          Spelling.suggestion(for: key, among: known).map { "; did you mean '\($0)'?" } ?? ""
        throw JSONLines.LineError(message: "\(path): unknown figure '\(key)'\(hint)")
      }
      guard let number = value.numberValue, (0...1).contains(number) else {
        throw JSONLines.LineError(message: "\(path): '\(key)' must be a number between 0 and 1")
      }
      limits.append(Limit(metric: key, value: number, isMaximum: Self.maximumKeys.contains(key)))
    }
    limits.sort {
      (Self.order.firstIndex(of: $0.metric) ?? 0) < (Self.order.firstIndex(of: $1.metric) ?? 0)
    }
  }

  /// The order limits are checked and reported in, whatever the order in the file.
  static let order = [
    "accuracy", "precision", "coverage", "false_accept", "slot_exact", "calibration_error", "multi",
  ]

  /// Creates thresholds directly.
  init(split: String, limits: [Limit]) {
    self.split = split
    self.limits = limits
  }

  /// The figures of `report` that break a limit, in ``order``.
  func violations(of report: BenchReport) -> [Violation] {
    limits.compactMap { limit in
      guard let actual = Self.figure(limit.metric, in: report) else { return nil }
      let broken = limit.isMaximum ? actual > limit.value + 1e-12 : actual < limit.value - 1e-12
      return broken ? Violation(limit: limit, actual: actual) : nil
    }
  }

  /// The limits that could not be checked because nothing was there to measure.
  func unmeasured(in report: BenchReport) -> [String] {
    limits.filter { Self.figure($0.metric, in: report) == nil }.map(\.metric)
  }

  /// The figure named by a thresholds key.
  static func figure(_ metric: String, in report: BenchReport) -> Double? {
    switch metric {
    case "accuracy": report.accuracy
    case "precision": report.precision
    case "coverage": report.coverage
    case "false_accept": report.falseAccept
    case "slot_exact": report.slotExact
    case "multi": report.multi
    case "calibration_error": report.calibrationError
    default: nil
    }
  }
}
