import Foundation
import IntentEngine

/// `intent check`: validates grammars and runs every example as a self-test.
enum CheckCommand {
  static let usage = """
    Usage: intent check [--quiet] [--now <ISO 8601>] [--time-zone <zone>] [<dir>…]

      <dir>       user grammar folders, checked together with the built-ins
      --quiet     print only problems and the summary

    """

  static func run(_ arguments: [String], io: CommandIO) throws(UsageError) -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(
      arguments, flags: EngineOptions.flags.union(["--quiet"]), options: EngineOptions.options)
    for folder in parsed.positional
    where !FileManager.default.fileExists(atPath: io.url(forPath: folder).path) {
      throw UsageError(
        message: "no such grammar folder '\(folder)'; check the '<dir>' argument")
    }
    var forwarded = arguments.filter { !parsed.positional.contains($0) }
    for folder in parsed.positional { forwarded += ["--grammars", folder] }
    let merged = try Arguments(
      forwarded, flags: EngineOptions.flags.union(["--quiet"]), options: EngineOptions.options)
    var options = try EngineOptions(merged, io: io)
    if merged.value("--now") == nil {
      // Examples are checked against a fixed clock so that results never depend on the hour.
      options.context.now = EngineOptions.date(fromISO8601: "2026-11-30T09:00:00+08:00") ?? Date()
      if merged.value("--time-zone") == nil, io.environment["TZ"] == nil {
        options.context.timeZone = TimeZone(identifier: "Asia/Shanghai") ?? .current
      }
    }
    guard let engine = options.loadEngine(io: io) else { return 1 }
    let quiet = merged.has("--quiet")
    var failures = 0
    for example in engine.grammar.examples {
      let result = engine.parse(example.text, context: options.context)
      let problems = problems(of: example, in: result)
      let routed = result.intent.map { "\($0)" } ?? "none"
      let summary =
        "'\(example.text)' → \(routed) \(ResultFormatter.format(result.confidence)) \(result.route.rawValue)"
      if problems.isEmpty {
        if !quiet { io.write("ok    \(example.location): \(summary)\n") }
      } else {
        failures += 1
        io.write("FAIL  \(example.location): \(summary); \(problems.joined(separator: "; "))\n")
      }
    }
    let total = engine.grammar.examples.count
    io.write(
      "\(engine.intents.count) intents, \(total) examples, \(total - failures) passed, \(failures) failed\n"
    )
    return failures == 0 ? 0 : 1
  }

  /// What is wrong with how `result` answers `example`; empty when the example holds.
  static func problems(of example: GrammarExample, in result: ParseResult) -> [String] {
    if example.isCounterexample {
      if result.intent == example.intent, result.route == .local {
        return ["must not be routed to '\(example.intent)' locally"]
      }
      return []
    }
    var problems: [String] = []
    if result.intent != example.intent {
      problems.append("expected '\(example.intent)'")
    } else if result.route != .local {
      problems.append("expected a local route")
    }
    for (name, expected) in example.expectedSlots {
      guard let actual = result.slot(name) else {
        problems.append("slot '\(name)' missing")
        continue
      }
      let rendered = actual.stringValue ?? actual.jsonText
      if rendered != expected {
        problems.append("slot '\(name)' is '\(rendered)', expected '\(expected)'")
      }
    }
    return problems
  }
}
