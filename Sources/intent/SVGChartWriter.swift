import Foundation
import IntentEngine

/// Draws the bench charts as standalone SVG: reliability diagram, risk–coverage curve, confusion heat map.
///
/// The SVG is written by hand (no dependencies), with labelled axes, a title and a `<title>`
/// tooltip on every mark, so the files read well in a browser, a README or a code review.
enum SVGChartWriter {
  /// The file names written into the `--svg` folder.
  static let fileNames = ["reliability.svg", "risk-coverage.svg", "confusion.svg"]

  private static let font =
    "font-family=\"system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\""

  /// Writes all three charts into `directory`, creating it when needed.
  static func write(_ report: BenchReport, curve: [RoutingPoint], to directory: URL) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let charts = [
      ("reliability.svg", reliability(report)),
      ("risk-coverage.svg", riskCoverage(report, curve: curve)),
      ("confusion.svg", confusion(report)),
    ]
    for (name, text) in charts {
      try Data(text.utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
    }
  }

  // MARK: - Reliability

  /// A reliability diagram: accuracy per confidence bin against the diagonal of perfect calibration.
  static func reliability(_ report: BenchReport) -> String {
    let plot = Plot(left: 80, top: 76, width: 400, height: 400)
    let ece = BenchFormat.decimal(report.calibrationError)
    let lines = report.reliability.reduce(0) { $0 + $1.count }
    var svg = header(width: 520, height: 600, title: "Reliability diagram")
    svg += text("Reliability diagram", x: 20, y: 30, size: 18, weight: "600")
    svg += text(
      "expected calibration error \(ece) · \(lines) lines with a candidate · split \(report.split)",
      x: 20, y: 52, size: 12, fill: "#555")
    svg += plot.frame()
    svg += plot.grid(
      xTicks: (0...10).map { Double($0) / 10 }, yTicks: (0...10).map { Double($0) / 10 })
    svg += plot.axisLabels(x: "confidence", y: "accuracy (share right)")
    svg +=
      "<line x1=\"\(f(plot.x(0)))\" y1=\"\(f(plot.y(0)))\" x2=\"\(f(plot.x(1)))\" y2=\"\(f(plot.y(1)))\" "
      + "stroke=\"#888\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"><title>perfect calibration</title></line>\n"
    let maxCount = max(1, report.reliability.map(\.count).max() ?? 1)
    for bin in report.reliability where bin.count > 0 {
      let x0 = plot.x(bin.lower) + 3
      let x1 = plot.x(bin.upper) - 3
      let top = plot.y(bin.accuracy)
      let opacity = 0.35 + 0.65 * Double(bin.count) / Double(maxCount)
      svg +=
        "<rect x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(x1 - x0))\" height=\"\(f(plot.y(0) - top))\" "
        + "fill=\"#3b6fd8\" fill-opacity=\"\(f(opacity))\"><title>"
        + "\(String(format: "%.1f–%.1f", bin.lower, bin.upper)): \(bin.count) lines, "
        + "mean confidence \(BenchFormat.decimal(bin.meanConfidence)), accuracy \(BenchFormat.decimal(bin.accuracy))"
        + "</title></rect>\n"
      svg +=
        "<circle cx=\"\(f(plot.x(bin.meanConfidence)))\" cy=\"\(f(plot.y(bin.meanConfidence)))\" r=\"3.5\" "
        + "fill=\"#d8453b\"><title>mean confidence \(BenchFormat.decimal(bin.meanConfidence))</title></circle>\n"
      svg += text(
        "\(bin.count)", x: (x0 + x1) / 2, y: top - 5, size: 10, anchor: "middle", fill: "#444")
    }
    svg += legend(
      x: plot.left, y: plot.top + plot.height + 66,
      entries: [
        ("#3b6fd8", "accuracy per bin (label: lines; darker = more lines)"),
        ("#d8453b", "mean confidence"),
        ("#888", "perfect calibration"),
      ])
    return svg + "</svg>\n"
  }

  // MARK: - Risk–coverage

  /// A risk–coverage curve: local precision against coverage as the local threshold moves.
  static func riskCoverage(_ report: BenchReport, curve: [RoutingPoint]) -> String {
    let plot = Plot(left: 80, top: 76, width: 420, height: 360)
    let points = curve.filter { $0.precision != nil }
    let lowest = points.compactMap(\.precision).min() ?? 0
    let yMin = max(0, (min(lowest, 0.9) * 10).rounded(.down) / 10)
    let yTicks = stride(from: yMin, through: 1.0001, by: (1 - yMin) <= 0.31 ? 0.05 : 0.1).map { $0 }
    var scaled = plot
    scaled.yRange = yMin...1
    var svg = header(width: 540, height: 500, title: "Risk–coverage curve")
    svg += text("Risk–coverage curve", x: 20, y: 30, size: 18, weight: "600")
    svg += text(
      "local precision against coverage as the local threshold moves · split \(report.split)",
      x: 20, y: 52, size: 12, fill: "#555")
    svg += scaled.frame()
    svg += scaled.grid(xTicks: (0...10).map { Double($0) / 10 }, yTicks: yTicks)
    svg += scaled.axisLabels(
      x: "local coverage (share of in-scope lines handled on the device)",
      y: "local precision (share right)")
    let path = points.compactMap { point -> String? in
      guard let precision = point.precision else { return nil }
      return "\(f(scaled.x(point.coverage))),\(f(scaled.y(precision)))"
    }
    if !path.isEmpty {
      svg +=
        "<polyline points=\"\(path.joined(separator: " "))\" fill=\"none\" stroke=\"#3b6fd8\" "
        + "stroke-width=\"2\"/>\n"
    }
    for point in points {
      guard let precision = point.precision else { continue }
      let isTick = abs(point.threshold * 10 - (point.threshold * 10).rounded()) < 1e-9
      svg +=
        "<circle cx=\"\(f(scaled.x(point.coverage)))\" cy=\"\(f(scaled.y(precision)))\" r=\"\(isTick ? "3" : "1.5")\" "
        + "fill=\"#3b6fd8\"><title>threshold \(String(format: "%.2f", point.threshold)): precision "
        + "\(BenchFormat.percent(precision)), coverage \(BenchFormat.percent(point.coverage)), false accepts "
        + "\(BenchFormat.percent(point.falseAccept))</title></circle>\n"
    }
    if let current = curve.min(by: {
      abs($0.threshold - report.localThreshold) < abs($1.threshold - report.localThreshold)
    }), let precision = current.precision {
      let cx = scaled.x(current.coverage)
      let cy = scaled.y(precision)
      svg +=
        "<circle cx=\"\(f(cx))\" cy=\"\(f(cy))\" r=\"7\" fill=\"none\" stroke=\"#d8453b\" stroke-width=\"2.5\">"
        + "<title>local threshold in force</title></circle>\n"
      svg += text(
        "threshold \(String(format: "%.2f", report.localThreshold))", x: cx - 10, y: cy + 22,
        size: 12,
        anchor: "end", fill: "#d8453b")
    }
    svg += legend(
      x: scaled.left + 10, y: scaled.top + scaled.height - 36,
      entries: [
        ("#3b6fd8", "thresholds 0.00–1.00 (large dot every 0.10)"),
        ("#d8453b", "threshold in force"),
      ])
    return svg + "</svg>\n"
  }

  // MARK: - Confusion

  /// A confusion heat map: expected intents (rows) against what was decided locally (columns).
  static func confusion(_ report: BenchReport) -> String {
    let labels = report.confusion.labels
    let n = max(labels.count, 1)
    let cell = Double(max(34, min(64, 560 / n)))
    let labelWidth = Double(min(220, 40 + 8 * (labels.map(\.count).max() ?? 4)))
    let left = labelWidth + 40
    let top = 80 + labelWidth * 0.75
    let width = max(560, left + cell * Double(n) + 40)
    let height = top + cell * Double(n) + 60
    var svg = header(width: width, height: height, title: "Confusion heat map")
    svg += text("Confusion heat map", x: 20, y: 30, size: 18, weight: "600")
    svg += text(
      "expected intent (rows) against what was decided locally (columns) · split \(report.split)",
      x: 20, y: 52, size: 12, fill: "#555")
    for (j, label) in labels.enumerated() {
      let x = left + cell * (Double(j) + 0.5)
      svg +=
        "<text x=\"\(f(x))\" y=\"\(f(top - 8))\" font-size=\"12\" \(font) text-anchor=\"start\" "
        + "transform=\"rotate(-45 \(f(x)) \(f(top - 8)))\">\(JUnitWriter.escape(label))</text>\n"
    }
    for (i, label) in labels.enumerated() {
      let y = top + cell * (Double(i) + 0.5) + 4
      svg += text(label, x: left - 8, y: y, size: 12, anchor: "end")
      let rowTotal = max(1, report.confusion.counts[i].reduce(0, +))
      for (j, count) in report.confusion.counts[i].enumerated() {
        let share = Double(count) / Double(rowTotal)
        let colour = i == j ? "#2e9e5b" : "#d8453b"
        let x = left + cell * Double(j)
        let cy = top + cell * Double(i)
        svg +=
          "<rect x=\"\(f(x))\" y=\"\(f(cy))\" width=\"\(f(cell))\" height=\"\(f(cell))\" fill=\"\(count == 0 ? "#f7f7f7" : colour)\" "
          + "fill-opacity=\"\(f(count == 0 ? 1 : 0.15 + 0.85 * share))\" stroke=\"#fff\" stroke-width=\"1\">"
          + "<title>expected \(JUnitWriter.escape(label)), decided \(JUnitWriter.escape(labels[j])): \(count) "
          + "(\(BenchFormat.percent(share)) of the row)</title></rect>\n"
        if count > 0 {
          svg += text(
            "\(count)", x: x + cell / 2, y: cy + cell / 2 + 4, size: 12, anchor: "middle",
            fill: share > 0.55 ? "#fff" : "#222")
        }
      }
    }
    svg += text(
      "decided locally →", x: left + cell * Double(n), y: top - 8 - labelWidth * 0.6, size: 12,
      anchor: "end", fill: "#555")
    svg += text(
      "expected ↓  (cell shade: share of the row; green = right)", x: 20, y: height - 20, size: 12,
      fill: "#555")
    return svg + "</svg>\n"
  }

  // MARK: - Drawing helpers

  /// A rectangular plotting area mapping [0, 1] × `yRange` to pixels.
  private struct Plot {
    var left: Double
    var top: Double
    var width: Double
    var height: Double
    var yRange: ClosedRange<Double> = 0...1

    func x(_ value: Double) -> Double { left + width * min(max(value, 0), 1) }
    func y(_ value: Double) -> Double {
      let span = yRange.upperBound - yRange.lowerBound
      let clamped = min(max(value, yRange.lowerBound), yRange.upperBound)
      return top + height * (1 - (clamped - yRange.lowerBound) / (span > 0 ? span : 1))
    }

    func frame() -> String {
      "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(width))\" height=\"\(f(height))\" fill=\"#fff\" "
        + "stroke=\"#333\" stroke-width=\"1\"/>\n"
    }

    func grid(xTicks: [Double], yTicks: [Double]) -> String {
      var out = ""
      for tick in xTicks {
        out +=
          "<line x1=\"\(f(x(tick)))\" y1=\"\(f(top))\" x2=\"\(f(x(tick)))\" y2=\"\(f(top + height))\" "
          + "stroke=\"#e4e4e4\" stroke-width=\"1\"/>\n"
        out += SVGChartWriter.text(
          String(format: "%.1f", tick), x: x(tick), y: top + height + 16, size: 11,
          anchor: "middle",
          fill: "#444")
      }
      for tick in yTicks {
        out +=
          "<line x1=\"\(f(left))\" y1=\"\(f(y(tick)))\" x2=\"\(f(left + width))\" y2=\"\(f(y(tick)))\" "
          + "stroke=\"#e4e4e4\" stroke-width=\"1\"/>\n"
        out += SVGChartWriter.text(
          String(format: "%.2f", tick), x: left - 6, y: y(tick) + 4, size: 11, anchor: "end",
          fill: "#444")
      }
      return out
    }

    func axisLabels(x xLabel: String, y yLabel: String) -> String {
      var out = SVGChartWriter.text(
        xLabel, x: left + width / 2, y: top + height + 38, size: 13, anchor: "middle")
      let cx = left - 52
      let cy = top + height / 2
      out +=
        "<text x=\"\(f(cx))\" y=\"\(f(cy))\" font-size=\"13\" \(SVGChartWriter.font) text-anchor=\"middle\" "
        + "transform=\"rotate(-90 \(f(cx)) \(f(cy)))\">\(JUnitWriter.escape(yLabel))</text>\n"
      return out
    }
  }

  private static func header(width: Double, height: Double, title: String) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(height))\" "
      + "viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\">\n"
      + "<title>\(JUnitWriter.escape(title))</title>\n"
      + "<rect width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>\n"
  }

  private static func legend(x: Double, y: Double, entries: [(String, String)]) -> String {
    var out = ""
    for (i, (colour, label)) in entries.enumerated() {
      let rowY = y + Double(i) * 16
      out +=
        "<rect x=\"\(f(x))\" y=\"\(f(rowY - 9))\" width=\"10\" height=\"10\" fill=\"\(colour)\"/>\n"
      out += text(label, x: x + 15, y: rowY, size: 11, fill: "#333")
    }
    return out
  }

  static func text(
    _ content: String, x: Double, y: Double, size: Int, anchor: String = "start",
    weight: String = "normal", fill: String = "#222"
  ) -> String {
    "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(size)\" \(font) font-weight=\"\(weight)\" "
      + "text-anchor=\"\(anchor)\" fill=\"\(fill)\">\(JUnitWriter.escape(content))</text>\n"
  }

  /// A coordinate with at most one decimal, for compact and stable files.
  static func f(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
  }
}
