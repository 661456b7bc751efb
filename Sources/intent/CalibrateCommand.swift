import Foundation
import IntentEngine

/// `intent calibrate`: fits the confidence calibration and the local threshold on `dev` fixtures.
///
/// Only `dev` lines are read, so `test` figures stay honest. The fitted mapping and threshold are
/// written next to the grammars (`calibration.json`), keeping the softmax settings in force.
enum CalibrateCommand {
  static let usage = """
    Usage: intent calibrate [<path>…] [--target-precision <p> | --cloud-budget <share>]
                            [--method platt|isotonic] [--output <file>] [--dry-run]
                            [--grammars <dir>]… [--no-builtin]

      <path>              fixture files or folders (default: Fixtures/); only 'dev' lines are used
      --target-precision  lowest local threshold whose local precision reaches p (default 0.99)
      --cloud-budget      highest local threshold that sends at most this share of in-scope
                          lines to the cloud (out-of-scope lines do not count against it)
      --method            platt (default; two parameters), isotonic (a monotone table) or
                      logistic (one weight per confidence signal)
      --output            where to write (default: Grammars/calibration.json)
      --dry-run           report only; write nothing

    """

  /// Where the calibration is written unless `--output` says otherwise, relative to the current directory.
  static let defaultOutput = "Grammars/" + GrammarLoader.calibrationFileName
  /// The local precision aimed for unless told otherwise (DESIGN.md: ≥ 99% on test fixtures).
  static let defaultTargetPrecision = 0.99
  /// The lowest local threshold ever chosen: a local answer must at least be more likely right
  /// than wrong, even when the dev lines would allow less.
  static let minimumLocalThreshold = 0.5
  /// Folds for the cross-validated calibration error.
  static let folds = 5
  /// Rows of the trade-off table.
  static let tableThresholds: [Double] = [
    0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.97, 0.99,
  ]

  static func run(_ arguments: [String], io: CommandIO) throws(UsageError) -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(
      arguments, flags: EngineOptions.flags.union(["--dry-run"]),
      options: EngineOptions.options.union([
        "--target-precision", "--cloud-budget", "--method", "--output",
      ]))
    if parsed.value("--target-precision") != nil, parsed.value("--cloud-budget") != nil {
      throw UsageError(message: "'--target-precision' and '--cloud-budget' cannot be used together")
    }
    let target = try share(parsed, "--target-precision")
    let budget = try share(parsed, "--cloud-budget")
    let methodName = parsed.value("--method") ?? CalibrationFitter.Method.platt.rawValue
    guard let method = CalibrationFitter.Method(rawValue: methodName) else {
      throw UsageError(
        message: "'--method' must be platt, isotonic or logistic, not '\(methodName)'")
    }
    var options = try EngineOptions(parsed, io: io)
    if parsed.value("--now") == nil {
      options.context.now = EngineOptions.date(fromISO8601: FixtureReader.defaultNow) ?? Date()
    }
    if parsed.value("--time-zone") == nil {
      options.context.timeZone =
        TimeZone(identifier: FixtureReader.defaultTimeZone) ?? options.context.timeZone
    }

    let paths = parsed.positional.isEmpty ? [BenchCommand.defaultPath] : parsed.positional
    let loaded = FixtureReader.load(paths: paths, io: io)
    if !loaded.problems.isEmpty {
      for problem in loaded.problems { io.writeError("error: \(problem)\n") }
      return 1
    }
    let dev = loaded.fixtures.filter { $0.split == "dev" }
    guard !dev.isEmpty else {
      io.writeError("error: no 'dev' fixture lines to fit on; mark lines with \"split\": \"dev\"\n")
      return 1
    }
    guard let engine = options.loadEngine(io: io) else { return 1 }
    let current = engine.calibration

    // One parse per line; the calibration is refitted on the shares, so no reparsing is needed.
    var samples: [CalibrationSample] = []
    var lines: [(outcome: BenchOutcome, sample: CalibrationSample?)] = []
    for fixture in dev {
      let result = engine.parse(
        fixture.text, context: BenchCommand.context(for: fixture, default: options.context))
      let outcome = BenchOutcome(fixture: fixture, result: result, engine: engine)
      let sample = outcome.share.map {
        CalibrationSample(share: $0, isCorrect: outcome.isCorrectIfLocal, signals: result.signals)
      }
      lines.append((outcome, sample))
      if let sample { samples.append(sample) }
    }
    guard !samples.isEmpty else {
      io.writeError("error: no 'dev' line matched any intent; nothing to fit\n")
      return 1
    }

    let fitter = CalibrationFitter()
    let before = CalibrationFitter.expectedCalibrationError(
      confidences: samples.map { $0.confidence(under: current) },
      correct: samples.map(\.isCorrect))
    let crossValidated = CalibrationFitter.Method.allCases.map {
      ($0, fitter.crossValidatedError(samples, method: $0, base: current, folds: folds))
    }
    var fitted = fitter.fitted(current, method: method, samples: samples)
    let routing = lines.map { line -> RoutingSample in
      var sample = line.outcome.routingSample
      sample.confidence = line.sample.map { $0.confidence(under: fitted) } ?? 0
      return sample
    }
    let after = CalibrationFitter.expectedCalibrationError(
      confidences: samples.map { $0.confidence(under: fitted) },
      correct: samples.map(\.isCorrect))

    let goal: String
    let chosen: RoutingPoint?
    if let budget {
      goal = "send at most \(BenchFormat.percent(budget)) of in-scope lines to the cloud"
      chosen = fitter.threshold(forCloudBudget: budget, samples: routing).map {
        $0.threshold >= minimumLocalThreshold
          ? $0 : CalibrationFitter.routingPoint(at: minimumLocalThreshold, samples: routing)
      }
    } else {
      let precision = target ?? defaultTargetPrecision
      goal = "local precision ≥ \(BenchFormat.percent(precision))"
      chosen = fitter.threshold(forPrecision: precision, samples: routing).map { point in
        // A little above the lowest qualifying confidence, rounded up to three decimals.
        let rounded = min(
          1, max(minimumLocalThreshold, (point.threshold * 1_000).rounded(.up) / 1_000))
        let adjusted = CalibrationFitter.routingPoint(at: rounded, samples: routing)
        return (adjusted.precision ?? 0) >= precision ? adjusted : point
      }
    }

    var out =
      "intent calibrate: \(dev.count) dev lines, \(samples.count) with a candidate intent\n\n"
    out += "  \(BenchFormat.pad("method", 36)) \(method.rawValue)\n"
    out +=
      "  \(BenchFormat.pad("calibration error in force", 36)) \(BenchFormat.decimal(before)) (\(current.method))\n"
    for (name, error) in crossValidated {
      out +=
        "  \(BenchFormat.pad("\(name.rawValue), \(folds)-fold cross-validated", 36)) \(BenchFormat.decimal(error))\n"
    }
    out +=
      "  \(BenchFormat.pad("\(method.rawValue) fitted on all dev lines", 36)) \(BenchFormat.decimal(after)) (in-sample)\n"
    switch method {
    case .platt:
      out += String(format: "  slope %.4f, intercept %.4f\n", fitted.slope, fitted.intercept)
    case .isotonic:
      out += "  \(fitted.knots?.count ?? 0) knots\n"
    case .logistic:
      let weights = ConfidenceSignals.names.map {
        "\($0) \(String(format: "%.3f", fitted.weights?[$0] ?? 0))"
      }
      out += "  weights: " + weights.joined(separator: ", ")
      out += String(format: "; bias %.3f\n", fitted.intercept)
    }
    out += "\n  local threshold  precision  coverage  false accepts  cloud (in scope)\n"
    var rows = tableThresholds.map { CalibrationFitter.routingPoint(at: $0, samples: routing) }
    if let chosen { rows.append(chosen) }
    let inForce = CalibrationFitter.routingPoint(at: current.localThreshold, samples: routing)
    rows.append(inForce)
    var seen: Set<Double> = []
    for row in rows.sorted(by: { $0.threshold < $1.threshold })
    where seen.insert(row.threshold).inserted {
      var marks: [String] = []
      if row.threshold == chosen?.threshold { marks.append("← chosen") }
      if row.threshold == current.localThreshold {
        marks.append("(current threshold, refitted mapping)")
      }
      out +=
        "  \(BenchFormat.pad(String(format: "%.3f", row.threshold), 16)) "
        + "\(BenchFormat.pad(BenchFormat.percent(row.precision), 10, right: true)) "
        + "\(BenchFormat.pad(BenchFormat.percent(row.coverage), 9, right: true)) "
        + "\(BenchFormat.pad(BenchFormat.percent(row.falseAccept), 14, right: true)) "
        + "\(BenchFormat.pad(BenchFormat.percent(row.cloudShare), 17, right: true))"
        + (marks.isEmpty ? "" : "  " + marks.joined(separator: " ")) + "\n"
    }
    io.write(out)

    guard let chosen else {
      io.writeError(
        "error: no local threshold meets the goal (\(goal)) on the dev lines; "
          + "try a lower '--target-precision' or a '--cloud-budget'; nothing was written\n")
      return 1
    }
    fitted.localThreshold = chosen.threshold
    fitted.offlineThreshold = min(fitted.offlineThreshold, fitted.localThreshold)
    io.write(
      "\nchosen local threshold \(String(format: "%.3f", chosen.threshold)) for \(goal): precision "
        + "\(BenchFormat.percent(chosen.precision)), coverage \(BenchFormat.percent(chosen.coverage)), "
        + "false accepts \(BenchFormat.percent(chosen.falseAccept))\n")
    if let problem = fitted.problem() {
      io.writeError("error: the fitted calibration is not usable: \(problem)\n")
      return 1
    }
    if parsed.has("--dry-run") {
      io.write("dry run: nothing written\n")
      return 0
    }
    let output = parsed.value("--output") ?? defaultOutput
    do {
      try write(fitted, to: io.url(forPath: output))
    } catch {
      io.writeError("error: cannot write '\(output)': \(error.localizedDescription)\n")
      return 1
    }
    io.write("wrote \(output)\n")
    return 0
  }

  /// Reads an option holding a share in [0, 1].
  private static func share(_ parsed: Arguments, _ option: String) throws(UsageError) -> Double? {
    guard let text = parsed.value(option) else { return nil }
    guard let value = Double(text), (0...1).contains(value) else {
      throw UsageError(message: "'\(option)' needs a number between 0 and 1, not '\(text)'")
    }
    return value
  }

  /// Writes the calibration as sorted, indented JSON: a temporary file, then a rename.
  static func write(_ calibration: Calibration, to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(calibration)
    data.append(UInt8(ascii: "\n"))
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url, options: .atomic)
  }
}
