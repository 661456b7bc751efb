import Foundation
import IntentEngine

/// The `intent` command line: dispatches to a subcommand and returns the exit code.
///
/// Exit codes: 0 ok (also "not understood"), 1 failure, 2 usage.
enum IntentCommand {
  static let usage = """
    Usage: intent <command> [options]

    Commands:
      parse       classify text: intent, confidence, slots, route and why
      check       validate grammars and run their examples
      run         parse, route and execute: start timers and other skills
      timers      list running timers with the time left
      reminders   list upcoming reminders
      memos       list notes and list items
      due         report timers and reminders that have gone off (--watch keeps watching)
      learned     list (or --forget) the phrases the cloud resolved, answered offline
      replay      re-decide a recorded trace with today's grammars
      bench       score labelled fixtures: accuracy, routing, calibration, latency
      calibrate   fit the confidence calibration and local threshold on dev fixtures
      help        show a command's options: 'intent help parse'
      version     print the version (also 'intent --version')
    Run 'intent <command> --help' for a command's options.

    """

  /// The version `intent --version` prints.
  static let version = "0.9.0"

  /// Every command's name and full usage text, in the order the top-level usage lists them.
  static let commands: [(name: String, usage: String)] = [
    ("parse", ParseCommand.usage), ("check", CheckCommand.usage), ("run", RunCommand.usage),
    ("timers", TimersCommand.usage), ("reminders", RemindersCommand.usage),
    ("memos", MemosCommand.usage), ("due", DueCommand.usage), ("learned", LearnedCommand.usage),
    ("replay", ReplayCommand.usage), ("bench", BenchCommand.usage),
    ("calibrate", CalibrateCommand.usage),
  ]

  /// The full usage text of `command`, if it is one.
  static func usage(of command: String) -> String? {
    commands.first { $0.name == command }?.usage
  }

  /// What a usage error prints after its message: the command's synopsis and where to read more.
  static func shortUsage(of command: String?) -> String {
    guard let command, let full = usage(of: command) else {
      return "Usage: intent <command> [options]\n  See 'intent --help' for the commands.\n"
    }
    let synopsis = full.components(separatedBy: "\n\n").first ?? full
    return synopsis + "\n  See 'intent \(command) --help' for more information.\n"
  }

  /// Runs the command line `arguments` (without the program name).
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    // Whatever a command prints may quote the user's text: nothing reaches the terminal raw.
    var io = io
    let write = io.write
    let writeError = io.writeError
    io.write = { write(TerminalText.escaped($0)) }
    io.writeError = { writeError(TerminalText.escaped($0)) }
    guard let command = arguments.first else {
      io.writeError(usage)
      return 2
    }
    let rest = Array(arguments.dropFirst())
    if usage(of: command) != nil, rest.contains("--help") || rest.contains("-h") {
      io.write(usage(of: command) ?? usage)
      return 0
    }
    do {
      switch command {
      case "parse": return try await ParseCommand.run(rest, io: io)
      case "check": return try CheckCommand.run(rest, io: io)
      case "run": return try await RunCommand.run(rest, io: io)
      case "timers": return try await TimersCommand.run(rest, io: io)
      case "reminders": return try await RemindersCommand.run(rest, io: io)
      case "memos": return try await MemosCommand.run(rest, io: io)
      case "due": return try await DueCommand.run(rest, io: io)
      case "learned": return try await LearnedCommand.run(rest, io: io)
      case "replay": return try await ReplayCommand.run(rest, io: io)
      case "bench": return try await BenchCommand.run(rest, io: io)
      case "calibrate": return try CalibrateCommand.run(rest, io: io)
      case "--version", "version":
        if let extra = rest.first {
          throw UsageError(message: "unexpected argument '\(extra)'; 'intent version' takes none")
        }
        io.write("intent \(version)\n")
        return 0
      case "--help", "-h", "help":
        guard let topic = rest.first else {
          io.write(usage)
          return 0
        }
        guard let text = usage(of: topic) else {
          throw UsageError(message: unknownCommand(topic))
        }
        io.write(text)
        return 0
      default:
        throw UsageError(message: unknownCommand(command))
      }
    } catch {
      let inCommand = usage(of: command) != nil ? command : nil
      io.writeError("error: \(error.message)\n" + shortUsage(of: inCommand))
      return 2
    }
  }

  /// The message for a command that does not exist, with the closest one.
  static func unknownCommand(_ name: String) -> String {
    let known = commands.map(\.name) + ["help", "version"]
    let hint = Arguments.suggestion(for: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
    return "unknown command '\(name)'\(hint)"
  }
}

/// Options every engine-using command shares: grammar folders, clock and zone.
struct EngineOptions {
  static let options: Set<String> = ["--grammars", "--now", "--time-zone"]
  static let flags: Set<String> = ["--no-builtin"]

  var userGrammars: [URL]
  var includeBuiltins: Bool
  var context: ParseContext

  /// Reads the shared options; `TZ` sets the zone unless `--time-zone` is given.
  init(_ arguments: Arguments, io: CommandIO) throws(UsageError) {
    userGrammars = arguments.values("--grammars").map(io.url(forPath:))
    includeBuiltins = !arguments.has("--no-builtin")
    var zone = TimeZone.current
    if let name = arguments.value("--time-zone")
      ?? io.environment["TZ"].map({ $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }),
      !name.isEmpty
    {
      guard let named = TimeZone(identifier: name) else {
        throw UsageError(
          message: "unknown time zone '\(name)'; use an IANA name such as 'Asia/Shanghai'")
      }
      zone = named
    }
    var now = Date()
    if let text = arguments.value("--now") {
      guard let parsed = Self.date(fromISO8601: text) else {
        throw UsageError(
          message:
            "'--now' needs an ISO 8601 time such as '2026-11-30T09:00:00+08:00', not '\(text)'")
      }
      now = parsed
    }
    context = ParseContext(now: now, timeZone: zone)
  }

  /// Loads the engine, printing grammar diagnostics to stderr when it fails.
  func loadEngine(io: CommandIO) -> Engine? {
    do {
      let engine = try Engine.load(userGrammars: userGrammars, includeBuiltins: includeBuiltins)
      for warning in engine.grammar.warnings where warning.severity == .warning {
        io.writeError("\(warning)\n")
      }
      return engine
    } catch {
      io.writeError(error.description + "\n")
      return nil
    }
  }

  /// Parses ISO 8601 with or without fractional seconds; a missing offset means UTC.
  ///
  /// The common form (`2026-11-30T09:00:00+08:00`, `…Z`, or no offset) is read directly: a
  /// formatter costs tens of microseconds to make, and `parse --jsonl` reads a time on every line
  /// that carries one. Anything else goes to Foundation's formatter, which reads it the same way.
  static func date(fromISO8601 text: String) -> Date? {
    if let seconds = InternetTime.secondsSinceEpoch(text.utf8) {
      return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
    return formatterDate(fromISO8601: text)
  }

  /// ``date(fromISO8601:)`` read by Foundation's formatter alone.
  static func formatterDate(fromISO8601 text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [
      .withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate,
    ]
    return formatter.date(from: text)
  }
}

extension Error {
  /// The message to print for an error.
  var message: String {
    if let usage = self as? UsageError { return usage.message }
    return String(describing: self)
  }
}
