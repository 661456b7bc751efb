import Foundation
import IntentEngine

/// Renders bench reports for people: a terminal table or Markdown for the README.
enum BenchFormat {
  /// A ratio as a percentage with one decimal, or an en dash when there is nothing to show.
  static func percent(_ value: Double?) -> String {
    guard let value else { return "–" }
    return String(format: "%.1f%%", value * 100)
  }

  /// A figure in the unit people read it in: percentages for ratios, three decimals for ECE.
  static func figure(_ value: Double, metric: String) -> String {
    metric == "calibration_error" ? String(format: "%.3f", value) : percent(value)
  }

  /// A number with three decimals, or an en dash.
  static func decimal(_ value: Double?) -> String {
    guard let value else { return "–" }
    return String(format: "%.3f", value)
  }

  /// Microseconds with one decimal.
  static func micros(_ value: Double) -> String { String(format: "%.1f µs", value) }

  /// A count with thousands separators, the same in every locale.
  static func count(_ value: Int) -> String {
    let digits = String(value)
    var out = ""
    for (i, character) in digits.enumerated() {
      if i > 0, (digits.count - i) % 3 == 0, character != "-" { out += "," }
      out.append(character)
    }
    return out
  }

  /// Rounds to four decimals for stable JSON.
  static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

  /// Pads `text` to `width` columns (counting East Asian wide characters as two).
  static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let columns = text.unicodeScalars.reduce(0) { $0 + (isWide($1) ? 2 : 1) }
    let fill = String(repeating: " ", count: max(0, width - columns))
    return right ? fill + text : text + fill
  }

  private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v)
      || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v)
      || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
      || (0x20000...0x3FFFD).contains(v)
  }

  /// The headline rows: label, figure, and the counts behind it.
  static func headline(_ report: BenchReport) -> [(String, String, String)] {
    var rows: [(String, String, String)] = [
      (
        "accuracy (in scope, top-1)", percent(report.accuracy),
        "\(count(report.inScopeCount)) in-scope lines"
      ),
      ("local precision", percent(report.precision), "\(count(report.localCount)) routed locally"),
      ("local coverage", percent(report.coverage), "of in-scope lines routed locally"),
      (
        "out-of-scope false accepts", percent(report.falseAccept),
        "\(count(report.outOfScopeCount)) out-of-scope lines"
      ),
      (
        "slot exact-match", percent(report.slotExact),
        "\(count(report.slotLineCount)) lines with slots"
      ),
      (
        "multi-command", percent(report.multi),
        "\(report.multiLineCount) multi-command lines"
      ),
      (
        "follow-ups completed", percent(report.followUp),
        "\(report.followUpLineCount) lines with a follow-up answer, "
          + "\(report.followUpAskedCount) of them handled locally"
      ),
      (
        "calibration error (ECE)", decimal(report.calibrationError),
        "10 bins, local threshold \(String(format: "%.2f", report.localThreshold))"
      ),
    ]
    if let latency = report.latency {
      rows.append(
        (
          "latency p50 / p95 / p99",
          "\(micros(latency.p50)) / \(micros(latency.p95)) / \(micros(latency.p99))",
          "\(count(latency.samples)) parses in process"
            + (latency.build == "debug"
              ? ", debug build: build with 'swift build -c release' for real figures" : "")
        ))
      rows.append(
        ("throughput", "\(count(Int(latency.throughput.rounded())))/s", "one core, sequential"))
    }
    return rows
  }

  // MARK: - Terminal

  /// The full report as aligned text tables.
  static func text(_ report: BenchReport) -> String {
    var out =
      "intent bench: \(count(report.lineCount)) lines (split \(report.split)), "
      + "\(count(report.inScopeCount)) in scope, \(count(report.outOfScopeCount)) out of scope\n\n"
    for (label, value, detail) in headline(report) {
      out += "  \(pad(label, 28)) \(pad(value, 32))  \(detail)\n"
    }

    out += "\nper intent (decided locally; 'none' = not handled locally)\n"
    out +=
      "  \(pad("intent", 20)) \(pad("precision", 10, right: true)) \(pad("recall", 8, right: true)) "
      + "\(pad("F1", 8, right: true)) \(pad("lines", 6, right: true))\n"
    for score in report.intents {
      out +=
        "  \(pad(score.intent?.rawValue ?? BenchReport.noneLabel, 20)) "
        + "\(pad(percent(score.precision), 10, right: true)) \(pad(percent(score.recall), 8, right: true)) "
        + "\(pad(decimal(score.f1), 8, right: true)) \(pad(String(score.support), 6, right: true))\n"
    }

    out += "\nconfusion (rows expected, columns decided locally)\n"
    let width = max(6, (report.confusion.labels.map(\.count).max() ?? 4) + 1)
    out +=
      "  \(pad("", width))"
      + report.confusion.labels.enumerated().map {
        pad("[\($0.offset + 1)]", 6, right: true)
      }.joined() + "\n"
    for (i, label) in report.confusion.labels.enumerated() {
      out += "  \(pad("[\(i + 1)] " + label, width + 4))"
      out += report.confusion.counts[i].map { pad($0 == 0 ? "·" : String($0), 6, right: true) }
        .joined()
      out += "\n"
    }

    out += "\nreliability (confidence bin: mean confidence → accuracy, lines)\n"
    for bin in report.reliability where bin.count > 0 {
      out += String(
        format: "  %.1f–%.1f   %.3f → %.3f   %d\n", bin.lower, bin.upper, bin.meanConfidence,
        bin.accuracy, bin.count)
    }

    out += "\nrisk–coverage (local threshold: precision, coverage, false accepts)\n"
    for point in report.riskCoverage {
      let marker =
        abs(point.threshold - report.localThreshold) < 0.025
        ? "  ← nearest to threshold in force" : ""
      out +=
        "  \(String(format: "%.2f", point.threshold))  \(pad(percent(point.precision), 7, right: true))  "
        + "\(pad(percent(point.coverage), 7, right: true))  \(pad(percent(point.falseAccept), 7, right: true))\(marker)\n"
    }
    return out
  }

  // MARK: - Markdown

  /// The report as Markdown tables, for the README.
  static func markdown(_ report: BenchReport) -> String {
    var out = "| figure | value | |\n|---|---:|---|\n"
    for (label, value, detail) in headline(report) {
      out += "| \(label) | \(value) | \(detail) |\n"
    }
    out +=
      "\n\(report.lineCount) fixture lines, split `\(report.split)`: "
      + "\(report.inScopeCount) in scope, \(report.outOfScopeCount) out of scope.\n"
    out += "\n| intent | precision | recall | F1 | lines |\n|---|---:|---:|---:|---:|\n"
    for score in report.intents {
      out +=
        "| `\(score.intent?.rawValue ?? BenchReport.noneLabel)` | \(percent(score.precision)) | "
        + "\(percent(score.recall)) | \(decimal(score.f1)) | \(score.support) |\n"
    }
    out += "\n| threshold | precision | coverage | false accepts |\n|---:|---:|---:|---:|\n"
    for point in report.riskCoverage where point.threshold >= 0.5 {
      out +=
        "| \(String(format: "%.2f", point.threshold)) | \(percent(point.precision)) | "
        + "\(percent(point.coverage)) | \(percent(point.falseAccept)) |\n"
    }
    return out
  }
}
