import Foundation
import IntentEngine

/// `intent calibrate`: fits the confidence calibration and the local threshold on `dev` fixtures.
///
/// Only `dev` lines are read, so `test` figures stay honest. The fitted mapping and threshold are
/// written next to the grammars (`calibration.json`) only with `--write`, keeping the softmax
/// settings in force; the file records the command and the digests of the files it read, so that
/// running that command again on the same files reproduces it. Since where an utterance splits
/// into commands depends on confidence, the lines are parsed again under each fit until it
/// reproduces itself (or, in a cycle, the most cautious member is taken). Without `--write` the
/// command shows what would change.
enum CalibrateCommand {
  static let usage = """
    Usage: intent calibrate [<path>…] [--target-precision <p> [--set-precision <p>] |
                            --cloud-budget <share>] [--method isotonic|platt|logistic]
                            [--output <file>] [--write | --dry-run]
                            [--grammars <dir>]… [--no-builtin]

      <path>              fixture files or folders (default: Fixtures/); only 'dev' lines are used
      --target-precision  lowest local threshold whose local precision reaches p (default 0.99)
      --set-precision     also require the dev lines of each <path> on their own to reach local
                          precision p: a set of real users' sentences is held to its own floor
      --cloud-budget      highest local threshold that sends at most this share of in-scope
                          lines to the cloud (out-of-scope lines do not count against it)
      --method            platt (two parameters), isotonic (a monotone table) or logistic (one
                          weight per confidence signal); default: the method of the calibration
                          in force, so no options refits the same way
      --output            the file to compare with and write (default: Grammars/calibration.json)
      --write             write the file, recording this command and the SHA-256 of every
                          fixture file and grammar it read
      --dry-run           show what would change and write nothing (the default)

    """

  /// Where the calibration is written unless `--output` says otherwise, relative to the current directory.
  static let defaultOutput = "Grammars/" + GrammarLoader.calibrationFileName
  /// The method when neither `--method` nor the calibration in force names one the fitter knows.
  static let defaultMethod = CalibrationFitter.Method.isotonic
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
      arguments, flags: EngineOptions.flags.union(["--dry-run", "--write"]),
      options: EngineOptions.options.union([
        "--target-precision", "--set-precision", "--cloud-budget", "--method", "--output",
      ]))
    if parsed.value("--target-precision") != nil, parsed.value("--cloud-budget") != nil {
      throw UsageError(message: "'--target-precision' and '--cloud-budget' cannot be used together")
    }
    if parsed.value("--set-precision") != nil, parsed.value("--cloud-budget") != nil {
      throw UsageError(message: "'--set-precision' and '--cloud-budget' cannot be used together")
    }
    if parsed.has("--write"), parsed.has("--dry-run") {
      throw UsageError(message: "'--write' and '--dry-run' cannot be used together")
    }
    let target = try share(parsed, "--target-precision")
    let budget = try share(parsed, "--cloud-budget")
    let setTarget = try share(parsed, "--set-precision")
    let methodName = parsed.value("--method")
    if let methodName, CalibrationFitter.Method(rawValue: methodName) == nil {
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
    let loaded = FixtureReader.load(paths: paths, io: io, recordsDigests: true)
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
    // With no '--method', the method of the calibration in force: no options refits the same way.
    let method =
      methodName.flatMap(CalibrationFitter.Method.init(rawValue:))
      ?? CalibrationFitter.Method(rawValue: current.method) ?? defaultMethod

    let goal =
      budget.map { "send at most \(BenchFormat.percent($0)) of in-scope lines to the cloud" }
      ?? "local precision ≥ \(BenchFormat.percent(target ?? defaultTargetPrecision))"
      + (setTarget.map { ", each path ≥ \(BenchFormat.percent($0))" } ?? "")
    let settings = FitSettings(
      method: method, target: target ?? defaultTargetPrecision, setTarget: setTarget,
      budget: budget, context: options.context, sets: paths)
    var fits = [Self.fit(dev, under: engine, settings)]
    guard !fits[0].samples.isEmpty else {
      io.writeError("error: no 'dev' line matched any intent; nothing to fit\n")
      return 1
    }
    // Where an utterance splits into commands depends on confidence, so the lines are parsed
    // again under each fitted calibration until one reproduces a calibration already parsed
    // under: a fixed point, or a cycle.
    var cycleStart: Int?
    while cycleStart == nil, fits.count < maxRounds, let settled = fits[fits.count - 1].settled {
      cycleStart = fits.firstIndex { differences(from: $0.inForce, to: settled).isEmpty }
      if cycleStart == nil {
        fits.append(Self.fit(dev, under: engine.calibrated(settled), settings))
      }
    }
    // In a cycle, the most cautious member (highest threshold), whichever member it was entered
    // from: the written file is then what the same command fits again.
    let rounds = fits.count
    let candidates = cycleStart.map { Array(fits[$0...]) } ?? [fits[fits.count - 1]]
    var fit = candidates[0]
    for candidate in candidates.dropFirst() where Self.isMoreCautious(candidate, than: fit) {
      fit = candidate
    }
    if cycleStart == nil, fit.settled != nil {
      io.writeError(
        "note: the fit had not settled after \(rounds) parses; the same command run again goes on "
          + "from what it writes\n")
    }
    let samples = fit.samples
    let routing = fit.routing
    let chosen = fit.chosen
    var fitted = fit.fitted

    let fitter = CalibrationFitter()
    let before = CalibrationFitter.expectedCalibrationError(
      confidences: samples.map { $0.confidence(under: current) },
      correct: samples.map(\.isCorrect))
    let crossValidated = CalibrationFitter.Method.allCases.map {
      ($0, fitter.crossValidatedError(samples, method: $0, base: current, folds: folds))
    }
    let after = CalibrationFitter.expectedCalibrationError(
      confidences: samples.map { $0.confidence(under: fitted) },
      correct: samples.map(\.isCorrect))

    var out =
      "intent calibrate: \(dev.count) dev lines, \(samples.count) with a candidate intent"
      + (rounds > 1 ? "; parsed \(rounds) times until the fit settled" : "")
      + "\n\n"
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
    fitted = fit.settled ?? fitted
    io.write(
      "\nchosen local threshold \(String(format: "%.3f", chosen.threshold)) for \(goal): precision "
        + "\(BenchFormat.percent(chosen.precision)), coverage \(BenchFormat.percent(chosen.coverage)), "
        + "false accepts \(BenchFormat.percent(chosen.falseAccept))\n")
    if let problem = fitted.problem() {
      io.writeError("error: the fitted calibration is not usable: \(problem)\n")
      return 1
    }
    let output = parsed.value("--output") ?? defaultOutput
    let outputURL = io.url(forPath: output)
    fitted.provenance = Calibration.Provenance(
      // The command that writes this file: the same options, then '--write'.
      command: (["intent", "calibrate"] + arguments.filter { $0 != "--write" && $0 != "--dry-run" }
        + ["--write"]).map(quoted).joined(separator: " "),
      inputs: loaded.files.map { .init(path: $0.display, sha256: $0.sha256) }
        + [.init(path: "grammars in force", sha256: grammarDigest(options))])
    var written = current
    if let data = FileManager.default.contents(atPath: outputURL.path),
      let decoded = try? JSONDecoder().decode(Calibration.self, from: data)
    {
      written = decoded
    }
    let changes = differences(from: written, to: fitted)
    guard parsed.has("--write") else {
      if changes.isEmpty {
        io.write("\n\(output) is up to date: this fit reproduces it; nothing written\n")
      } else {
        io.write("\nwould change \(output):\n")
        for change in changes { io.write("  \(change)\n") }
        io.write("dry run: nothing written; add '--write' to write \(output)\n")
      }
      return 0
    }
    do {
      try write(fitted, to: outputURL)
    } catch {
      io.writeError("error: cannot write '\(output)': \(error.localizedDescription)\n")
      return 1
    }
    io.write("wrote \(output)\n")
    return 0
  }

  /// Most times the dev lines are parsed while the fit settles.
  static let maxRounds = 8

  /// What a fit aims for.
  struct FitSettings {
    var method: CalibrationFitter.Method
    var target: Double
    /// The local precision each path's dev lines must reach on their own, if any.
    var setTarget: Double?
    var budget: Double?
    var context: ParseContext
    /// The paths given, in order: a line's set is the first that holds its file.
    var sets: [String]

    /// The index in ``sets`` of the path that holds `file` (as the fixture reader names it).
    func set(of file: String) -> Int {
      sets.firstIndex { path in
        file == path || file.hasPrefix(path.hasSuffix("/") ? path : path + "/")
      } ?? 0
    }
  }

  /// Whether fit `a` settles on a more cautious calibration than `b`: a higher local threshold,
  /// then a lower intercept and slope (lower confidences).
  static func isMoreCautious(_ a: Fit, than b: Fit) -> Bool {
    guard let x = a.settled else { return false }
    guard let y = b.settled else { return true }
    return (x.localThreshold, -x.intercept, -x.slope) > (y.localThreshold, -y.intercept, -y.slope)
  }

  /// The dev lines parsed under one calibration, the mapping fitted on them and the threshold
  /// chosen for the goal.
  struct Fit {
    /// The calibration the lines were parsed under.
    var inForce: Calibration
    var samples: [CalibrationSample] = []
    var routing: [RoutingSample] = []
    var fitted: Calibration
    var chosen: RoutingPoint?

    /// The fitted mapping with the chosen threshold, as it would be written; nil when no
    /// threshold meets the goal.
    var settled: Calibration? {
      guard let chosen else { return nil }
      var calibration = fitted
      calibration.localThreshold = chosen.threshold
      calibration.offlineThreshold = min(calibration.offlineThreshold, chosen.threshold)
      calibration.provenance = inForce.provenance
      return calibration
    }
  }

  /// Parses every dev line under `engine` and fits the mapping and threshold on the results.
  static func fit(_ dev: [BenchFixture], under engine: Engine, _ settings: FitSettings) -> Fit {
    let inForce = engine.calibration
    var samples: [CalibrationSample] = []
    var lines: [(outcome: BenchOutcome, sample: CalibrationSample?, set: Int)] = []
    for fixture in dev {
      let result = engine.parse(
        fixture.text, context: BenchCommand.context(for: fixture, default: settings.context))
      let outcome = BenchOutcome(fixture: fixture, result: result, engine: engine)
      let sample = outcome.share.map {
        CalibrationSample(share: $0, isCorrect: outcome.isCorrectIfLocal, signals: result.signals)
      }
      lines.append((outcome, sample, settings.set(of: fixture.file)))
      if let sample { samples.append(sample) }
    }
    var fit = Fit(inForce: inForce, fitted: inForce)
    guard !samples.isEmpty else { return fit }
    let fitter = CalibrationFitter()
    let fitted = fitter.fitted(inForce, method: settings.method, samples: samples)
    let routing = lines.map { line -> RoutingSample in
      var sample = line.outcome.routingSample
      sample.confidence = line.sample.map { $0.confidence(under: fitted) } ?? 0
      sample.set = line.set
      return sample
    }
    let chosen: RoutingPoint?
    if let budget = settings.budget {
      chosen = fitter.threshold(forCloudBudget: budget, samples: routing).map {
        $0.threshold >= minimumLocalThreshold
          ? $0 : CalibrationFitter.routingPoint(at: minimumLocalThreshold, samples: routing)
      }
    } else {
      chosen = fitter.threshold(
        forPrecision: settings.target, setTarget: settings.setTarget, samples: routing
      ).map { point in
        // A little above the lowest qualifying confidence, rounded up to three decimals.
        let rounded = min(
          1, max(minimumLocalThreshold, (point.threshold * 1_000).rounded(.up) / 1_000))
        let adjusted = CalibrationFitter.routingPoint(at: rounded, samples: routing)
        let setsHold = settings.setTarget.map {
          CalibrationFitter.everySetReaches($0, at: rounded, samples: routing)
        }
        return (adjusted.precision ?? 0) >= settings.target && (setsHold ?? true)
          ? adjusted : point
      }
    }
    fit.samples = samples
    fit.routing = routing
    fit.fitted = fitted
    fit.chosen = chosen
    return fit
  }

  /// An argument as a shell reads it back: quoted when it holds anything but plain characters.
  static func quoted(_ argument: String) -> String {
    let plain = argument.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0)
        || "-_./=:,+@".unicodeScalars.contains($0)
    }
    if plain, !argument.isEmpty { return argument }
    return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// The SHA-256 of every grammar source in force, each as its path, a newline and its text.
  static func grammarDigest(_ options: EngineOptions) -> String {
    let builtin =
      options.includeBuiltins
      ? (try? GrammarLoader.builtin()) : GrammarLoader.Loaded(sources: [], calibration: .default)
    let loaded = builtin.flatMap {
      try? GrammarLoader.load(roots: options.userGrammars.map { ($0, $0.path) }, after: $0)
    }
    var bytes: [UInt8] = []
    for source in loaded?.sources ?? [] {
      bytes += Array(source.path.utf8) + [10] + Array(source.text.utf8) + [10]
    }
    return SHA256.hexDigest(of: bytes)
  }

  /// One line per field that differs, as `name  before → after`.
  static func differences(from old: Calibration, to new: Calibration) -> [String] {
    func number(_ value: Double) -> String { String(format: "%.4g", value) }
    var lines: [String] = []
    func compare(_ name: String, _ before: String, _ after: String) {
      if before != after { lines.append("\(BenchFormat.pad(name, 18)) \(before) → \(after)") }
    }
    compare("method", old.method, new.method)
    compare("local_threshold", number(old.localThreshold), number(new.localThreshold))
    compare("offline_threshold", number(old.offlineThreshold), number(new.offlineThreshold))
    compare("slope", number(old.slope), number(new.slope))
    compare("intercept", number(old.intercept), number(new.intercept))
    if old.knots != new.knots {
      lines.append(
        "\(BenchFormat.pad("knots", 18)) \(old.knots?.count ?? 0) → \(new.knots?.count ?? 0) knots, "
          + "values refitted")
    }
    if old.weights != new.weights {
      lines.append(
        "\(BenchFormat.pad("weights", 18)) \(old.weights?.count ?? 0) → \(new.weights?.count ?? 0) signals, "
          + "values refitted")
    }
    compare("made_by", old.provenance?.command ?? "not recorded", new.provenance?.command ?? "")
    if old.provenance?.inputs != new.provenance?.inputs, old.provenance != nil {
      let changed = (new.provenance?.inputs ?? []).filter {
        !(old.provenance?.inputs ?? []).contains($0)
      }
      lines.append(
        "\(BenchFormat.pad("inputs", 18)) \(changed.count) changed or new: "
          + changed.prefix(3).map(\.path).joined(separator: ", "))
    }
    return lines
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
