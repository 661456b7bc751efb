import BuiltinSkills
import Foundation
import IntentEngine
import Skills

/// `intent due`: reports the timers and reminders that have gone off, each once.
enum DueCommand {
  static let usage = """
    Usage: intent due [--json] [--watch] [--now <ISO 8601>] [--time-zone <zone>]

      --json           print one JSON object: {"due": [{kind, id, title, due_at}]}; with
                       --watch, one such item object per line as it falls due
      --watch          keep running and report each item as it falls due, also through
                       notify-send when it is installed; stop with Ctrl-C
      --now            the clock that decides what is due (default: now)
      --time-zone      the zone times are shown in (default: $TZ, else the system zone)

    Each item is reported once: it is taken off its store when reported.

    """

  static func run(_ arguments: [String], io: CommandIO) async throws -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(
      arguments, flags: ["--json", "--watch"], options: ["--now", "--time-zone"])
    if let extra = parsed.positional.first {
      throw UsageError(message: "unexpected argument '\(extra)'; 'intent due' takes no text")
    }
    let options = try EngineOptions(parsed, io: io)
    let zone = options.context.timeZone
    let problems = ProblemLog()
    let wallClock = parsed.value("--now") != nil ? WallClock.fixed(options.context.now) : .system
    let collector = DueCollector(
      directory: DataDirectory.url(environment: io.environment), wallClock: wallClock,
      problems: problems)
    let json = parsed.has("--json")
    if parsed.has("--watch") {
      let notifier = PrintingNotifier(
        io: io, zone: zone, json: json, notifySend: NotifySend.executable(io.environment))
      try await collector.watch(every: .seconds(1), clock: ContinuousClock(), notifier: notifier)
      return 0
    }
    let items: [DueItem]
    do {
      items = try await collector.takeDue()
    } catch {
      io.writeError("error: \(error)\n")
      return 1
    }
    for problem in await problems.drain() { io.writeError("warning: \(problem)\n") }
    if json {
      io.write(
        JSONValue.object([("due", .array(items.map { item(json: $0, zone: zone) }))])
          .prettyJSONText + "\n")
      return 0
    }
    guard !items.isEmpty else {
      io.write("nothing is due\n")
      return 0
    }
    for item in items { io.write(line(for: item, zone: zone) + "\n") }
    return 0
  }

  static func item(json item: DueItem, zone: TimeZone) -> JSONValue {
    .object([
      ("kind", .string(item.kind.rawValue)), ("id", .number(Double(item.id))),
      ("title", .string(item.title)),
      ("due_at", .string(Timestamp.iso8601(item.dueAt, in: zone))),
    ])
  }

  static func line(for item: DueItem, zone: TimeZone) -> String {
    let what = item.kind == .timer ? "timer" : "reminder"
    return
      "\(what) #\(item.id) '\(CommandText.printable(item.title))' went off at \(CommandText.local(item.dueAt, in: zone))"
  }
}

/// Prints each due item, and shows it through `notify-send` when that is installed.
struct PrintingNotifier: Notifier {
  let io: CommandIO
  let zone: TimeZone
  let json: Bool
  let notifySend: URL?

  func notify(_ item: DueItem) async {
    io.write(
      (json
        ? DueCommand.item(json: item, zone: zone).jsonText
        : DueCommand.line(for: item, zone: zone)) + "\n")
    guard let notifySend else { return }
    let process = Process()
    process.executableURL = notifySend
    process.arguments = [
      item.kind == .timer ? "Timer" : "Reminder", CommandText.printable(item.title),
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
      process.waitUntilExit()
    } catch {
      io.writeError("warning: notify-send could not run: \(error.localizedDescription)\n")
    }
  }
}

/// Where `notify-send` is installed, looked up on `PATH`.
enum NotifySend {
  static func executable(_ environment: [String: String]) -> URL? {
    let path = environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("notify-send")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}
