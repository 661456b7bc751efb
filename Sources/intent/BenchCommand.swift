import CloudFallback
import Foundation
import IntentEngine

/// `intent bench`: scores labelled fixtures for accuracy, routing, slots, calibration and latency.
///
/// Exit codes: 0 when every threshold in force holds, 1 when one breaks (or a fixture or grammar
/// cannot be read), 2 for usage mistakes.
enum BenchCommand {
  static let usage = """
    Usage: intent bench [<path>…] [--split dev|test|all] [--json | --markdown]
                        [--junit <file>] [--svg <dir>] [--failures] [--thresholds <file>]
                        [--no-thresholds] [--repeat <n>] [--grammars <dir>]… [--no-builtin]
                        [--route local|auto]

      <path>           fixture files (.jsonl) or folders of them (default: Fixtures/)
      --split          which lines to score (default: the thresholds' split, else all)
      --json           print the report as one JSON object
      --markdown       print the report as Markdown tables (for the README)
      --junit          also write JUnit XML, one test case per fixture line
      --svg            also write reliability.svg, risk-coverage.svg and confusion.svg
      --failures       list the lines that were misrouted, with the engine's explanation
      --thresholds     figures to reach (default: thresholds.json in the fixture folder);
                       the run exits 1 when one breaks
      --no-thresholds  report only, whatever the figures
      --repeat         timed parses per line for latency (default 5; 0 skips latency)
      --grammars       a folder of user grammars, loaded next to the built-ins (repeatable)
      --no-builtin     load only the folders given with --grammars
      --route          local (default): the engine alone; auto: also send the lines the engine
                       is unsure of to the configured cloud model (INTENT_LLM_*, one at a time)
                       and report the hybrid: share sent, valid and right cloud answers,
                       end-to-end precision and coverage, cloud p50/p95

    """

  /// The values `--split` accepts.
  static let splits = ["dev", "test", "all"]
  /// The fixture folder used when no path is given, relative to the current directory.
  static let defaultPath = "Fixtures"
  /// The thresholds file looked for in a fixture folder.
  static let thresholdsFileName = "thresholds.json"
  /// Timed parses per line unless `--repeat` says otherwise.
  static let defaultRepetitions = 5

  static func run(_ arguments: [String], io: CommandIO) async throws(UsageError) -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(
      arguments,
      flags: EngineOptions.flags.union(["--json", "--markdown", "--failures", "--no-thresholds"]),
      options: EngineOptions.options.union([
        "--split", "--junit", "--svg", "--thresholds", "--repeat", "--route",
      ]))
    let route = parsed.value("--route") ?? "local"
    guard route == "local" || route == "auto" else {
      throw UsageError(message: "'--route' must be 'local' or 'auto' for bench, not '\(route)'")
    }
    let llm = LLMConfiguration(environment: io.environment)
    let client = route == "auto" ? RunCommand.makeLLMClient(llm) : nil
    if route == "auto", client == nil {
      io.writeError("error: \(LLMConfiguration.notConfiguredMessage)\n")
      return 1
    }
    if parsed.has("--json"), parsed.has("--markdown") {
      throw UsageError(message: "'--json' and '--markdown' cannot be used together")
    }
    if let split = parsed.value("--split"), !splits.contains(split) {
      throw UsageError(message: "'--split' must be dev, test or all, not '\(split)'")
    }
    var repetitions = defaultRepetitions
    if let text = parsed.value("--repeat") {
      guard let value = Int(text), (0...1_000).contains(value) else {
        throw UsageError(message: "'--repeat' needs a number from 0 to 1000, not '\(text)'")
      }
      repetitions = value
    }
    if parsed.has("--no-thresholds"), parsed.value("--thresholds") != nil {
      throw UsageError(message: "'--thresholds' and '--no-thresholds' cannot be used together")
    }
    var options = try EngineOptions(parsed, io: io)
    let defaults = FixtureReader.self
    if parsed.value("--now") == nil {
      options.context.now = EngineOptions.date(fromISO8601: defaults.defaultNow) ?? Date()
    }
    if parsed.value("--time-zone") == nil {
      options.context.timeZone =
        TimeZone(identifier: defaults.defaultTimeZone) ?? options.context.timeZone
    }

    // Thresholds: explicit file, or thresholds.json inside the single fixture folder.
    let paths = parsed.positional.isEmpty ? [defaultPath] : parsed.positional
    var thresholds: BenchThresholds?
    var thresholdsPath: String?
    if !parsed.has("--no-thresholds") {
      if let explicit = parsed.value("--thresholds") {
        thresholdsPath = explicit
      } else if paths.count == 1 {
        let candidate = (paths[0].hasSuffix("/") ? paths[0] : paths[0] + "/") + thresholdsFileName
        if FileManager.default.fileExists(atPath: io.url(forPath: candidate).path) {
          thresholdsPath = candidate
        }
      }
    }
    if let thresholdsPath {
      guard let data = FileManager.default.contents(atPath: io.url(forPath: thresholdsPath).path)
      else {
        io.writeError("error: \(thresholdsPath): no such thresholds file\n")
        return 1
      }
      do {
        thresholds = try BenchThresholds(data: data, path: thresholdsPath)
      } catch {
        io.writeError("error: \(error.message)\n")
        return 1
      }
    }
    let split = parsed.value("--split") ?? thresholds?.split ?? "all"

    if parsed.positional.isEmpty,
      !FileManager.default.fileExists(atPath: io.url(forPath: defaultPath).path)
    {
      io.writeError(
        "error: no '\(defaultPath)' folder here; run from the repository root or pass fixture paths\n"
      )
      return 1
    }
    let loaded = FixtureReader.load(paths: paths, io: io)
    if !loaded.problems.isEmpty {
      for problem in loaded.problems { io.writeError("error: \(problem)\n") }
      io.writeError("\(loaded.problems.count) fixture problem(s); nothing was scored\n")
      return 1
    }
    guard let engine = options.loadEngine(io: io) else { return 1 }

    let wanted = Set([split, thresholds?.split].compactMap { $0 })
    let progress = Progress(io: io, total: loaded.fixtures.count)
    var lines: [BenchLine] = []
    for (index, fixture) in loaded.fixtures.enumerated()
    where wanted.contains(where: { fixture.isIn(split: $0) }) {
      let lineContext = context(for: fixture, default: options.context)
      let result = engine.parse(fixture.text, context: lineContext)
      let guess =
        result.intent == nil && fixture.slots != nil && !result.alternatives.isEmpty
        ? engine.bestGuess(fixture.text, context: lineContext) : nil
      var outcome = BenchOutcome(fixture: fixture, result: result, guess: guess, engine: engine)
      outcome.scoreFollowUp(of: fixture, result: result, engine: engine, context: lineContext)
      lines.append(BenchLine(fixture: fixture, result: result, outcome: outcome))
      progress.update(index + 1, "scoring")
    }
    progress.finish()

    let selected = lines.filter { $0.fixture.isIn(split: split) }
    if selected.isEmpty {
      io.writeError(
        "error: no fixture lines in split '\(split)' under \(paths.map { "'\($0)'" }.joined(separator: ", "))\n"
      )
      return 1
    }
    let latency = measureLatency(
      selected, engine: engine, repetitions: repetitions, io: io, defaultContext: options.context)
    let report = BenchReport(
      split: split, outcomes: selected.map(\.outcome),
      localThreshold: engine.calibration.localThreshold,
      latency: latency)

    // Thresholds are checked on their own split, which may differ from the one reported.
    var violations: [BenchThresholds.Violation] = []
    var unmeasured: [String] = []
    if let thresholds {
      let checked =
        thresholds.split == split
        ? report
        : BenchReport(
          split: thresholds.split,
          outcomes: lines.filter { $0.fixture.isIn(split: thresholds.split) }.map(\.outcome),
          localThreshold: engine.calibration.localThreshold)
      if checked.lineCount == 0 {
        violations.append(
          BenchThresholds.Violation(
            limit: .init(
              metric: "lines in split '\(thresholds.split)'", value: 1, isMaximum: false), actual: 0
          ))
      } else {
        violations = thresholds.violations(of: checked)
        unmeasured = thresholds.unmeasured(in: checked)
      }
    }
    let failures = selected.enumerated().filter { !$0.element.outcome.problems.isEmpty }
      .sorted { a, b in
        let ka = a.element.outcome.severity
        let kb = b.element.outcome.severity
        return ka != kb ? ka < kb : a.offset < b.offset
      }.map(\.element)

    if let junit = parsed.value("--junit") {
      do {
        try Data(JUnitWriter.document(selected).utf8).write(
          to: io.url(forPath: junit), options: .atomic)
      } catch {
        io.writeError("error: cannot write JUnit file '\(junit)': \(error.localizedDescription)\n")
        return 1
      }
    }
    if let svg = parsed.value("--svg") {
      let curve = (0...100).map { threshold in
        CalibrationFitter.routingPoint(
          at: Double(threshold) / 100, samples: selected.map(\.outcome.routingSample))
      }
      do {
        try SVGChartWriter.write(report, curve: curve, to: io.url(forPath: svg))
      } catch {
        io.writeError("error: cannot write charts to '\(svg)': \(error.localizedDescription)\n")
        return 1
      }
    }

    var hybrid: HybridReport?
    if let client {
      hybrid = await HybridReport.measure(
        selected, engine: engine, client: client,
        defaultContext: options.context, io: io)
    }

    let showFailures = parsed.has("--failures")
    if parsed.has("--json") {
      guard case .object(var members) = report.json() else { return 1 }
      if let hybrid { members.append(("hybrid", hybrid.json)) }
      members.append(
        (
          "thresholds",
          thresholdsJSON(
            thresholds, path: thresholdsPath, violations: violations, unmeasured: unmeasured)
        ))
      if showFailures { members.append(("failures", .array(failures.map(failureJSON)))) }
      io.write(JSONValue.object(members).prettyJSONText + "\n")
    } else if parsed.has("--markdown") {
      io.write(BenchFormat.markdown(report))
      if let hybrid { io.write("\n```" + hybrid.text + "```\n") }
      if showFailures { io.write("\n" + failuresText(failures, markdown: true)) }
    } else {
      io.write(BenchFormat.text(report))
      if let hybrid { io.write(hybrid.text) }
      if showFailures { io.write("\n" + failuresText(failures, markdown: false)) }
    }

    if let thresholds, let thresholdsPath {
      for metric in unmeasured {
        io.writeError(
          "note: '\(metric)' in \(thresholdsPath) was not checked; no line measures it\n")
      }
      if violations.isEmpty {
        io.writeError("thresholds met (\(thresholdsPath), split \(thresholds.split))\n")
      } else {
        io.writeError(
          "error: \(violations.count) figure(s) broke \(thresholdsPath) (split \(thresholds.split)):\n"
        )
        for violation in violations { io.writeError("  \(violation.description)\n") }
        io.writeError("  see 'intent bench --failures' for the lines behind them\n")
        return 1
      }
    }
    return 0
  }

  /// The context a fixture line is read in: its own `now`/`tz`, else the run's.
  static func context(for fixture: BenchFixture, default context: ParseContext) -> ParseContext {
    ParseContext(now: fixture.now ?? context.now, timeZone: fixture.timeZone ?? context.timeZone)
  }

  /// Times `parse` on every line after one untimed warm-up pass; nil when `repetitions` is 0.
  ///
  /// Contexts are built before timing; each result is folded into a checksum so the optimiser
  /// cannot drop the call.
  static func measureLatency(
    _ lines: [BenchLine], engine: Engine, repetitions: Int, io: CommandIO,
    defaultContext: ParseContext
  ) -> LatencySummary? {
    guard repetitions > 0 else { return nil }
    let inputs = lines.map { ($0.fixture.text, context(for: $0.fixture, default: defaultContext)) }
    var sink = 0
    for (text, context) in inputs { sink &+= engine.parse(text, context: context).slots.count }
    var durations: [UInt64] = []
    durations.reserveCapacity(inputs.count * repetitions)
    let progress = Progress(io: io, total: repetitions)
    for round in 0..<repetitions {
      for (text, context) in inputs {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = engine.parse(text, context: context)
        let end = DispatchTime.now().uptimeNanoseconds
        sink &+= result.alternatives.count
        durations.append(end &- start)
      }
      progress.update(round + 1, "timing")
    }
    progress.finish()
    if sink == Int.min { io.writeError("") }
    return LatencySummary(nanoseconds: durations)
  }

  static func thresholdsJSON(
    _ thresholds: BenchThresholds?, path: String?, violations: [BenchThresholds.Violation],
    unmeasured: [String]
  ) -> JSONValue {
    guard let thresholds, let path else { return .null }
    return .object([
      ("file", .string(path)),
      ("split", .string(thresholds.split)),
      ("passed", .bool(violations.isEmpty)),
      (
        "violations",
        .array(
          violations.map {
            .object([
              ("metric", .string($0.limit.metric)),
              ("value", .number(BenchFormat.rounded($0.actual))),
              ("limit", .number($0.limit.value)),
              ("kind", .string($0.limit.isMaximum ? "max" : "min")),
            ])
          })
      ),
      ("unmeasured", .array(unmeasured.map { .string($0) })),
    ])
  }

  static func failureJSON(_ line: BenchLine) -> JSONValue {
    .object([
      ("location", .string(line.fixture.location)),
      ("text", .string(line.fixture.text)),
      ("expected", line.fixture.intent.map { .string($0.rawValue) } ?? .null),
      ("got", line.result.intent.map { .string($0.rawValue) } ?? .null),
      ("confidence", .number(BenchFormat.rounded(line.result.confidence))),
      ("route", .string(line.result.route.rawValue)),
      ("problems", .array(line.outcome.problems.map { .string($0.rawValue) })),
      ("summary", .string(line.summary)),
      ("explanation", .array(line.result.explanation.map { .string($0.detail) })),
    ])
  }

  /// The misrouted lines, worst kind first, each with the evidence behind the decision.
  static func failuresText(_ failures: [BenchLine], markdown: Bool) -> String {
    guard !failures.isEmpty else { return "no misrouted lines\n" }
    var out = "\(failures.count) line(s) not handled as expected\n"
    if markdown { out += "\n```\n" }
    var kind: BenchOutcome.Problem?
    for line in failures {
      let first = line.outcome.problems.first
      if first != kind {
        kind = first
        out += "\n== \(first?.rawValue ?? "") ==\n"
      }
      out += "\(line.fixture.location)  '\(line.fixture.text)'\n    \(line.summary)\n"
      for evidence in line.result.explanation {
        let amount =
          evidence.contribution == 0
          ? ""
          : String(format: "  %@%.2f", evidence.contribution > 0 ? "+" : "", evidence.contribution)
        out += "      \(evidence.kind.rawValue): \(evidence.detail)\(amount)\n"
      }
    }
    if markdown { out += "```\n" }
    return out
  }
}

extension BenchFixture {
  /// Whether the line belongs to `split` (`all` holds every line).
  func isIn(split name: String) -> Bool { name == "all" || split == name }
}

/// A progress line on stderr: redrawn in place on a terminal, otherwise silent for short runs.
///
/// On a terminal the line updates a few times a second; elsewhere (CI logs) one line is written
/// per 5,000 items at most, so logs are never flooded.
final class Progress {
  private let io: CommandIO
  private let total: Int
  private let isTerminal: Bool
  private var lastDraw = DispatchTime.now().uptimeNanoseconds
  private var drew = false

  /// Lines per log entry when stderr is not a terminal.
  static let logInterval = 5_000

  init(io: CommandIO, total: Int) {
    self.io = io
    self.total = total
    let term = io.environment["TERM"] ?? ""
    isTerminal = isatty(STDERR_FILENO) == 1 && !term.isEmpty && term != "dumb"
  }

  func update(_ done: Int, _ phase: String) {
    if isTerminal {
      let now = DispatchTime.now().uptimeNanoseconds
      guard now - lastDraw > 200_000_000 || done == total else { return }
      lastDraw = now
      drew = true
      io.writeError("\r\u{1B}[K\(phase) \(done)/\(total)")
    } else if total >= Self.logInterval, done % Self.logInterval == 0 {
      io.writeError("\(phase) \(done)/\(total)\n")
    }
  }

  func finish() {
    if drew { io.writeError("\r\u{1B}[K") }
    drew = false
  }
}
