import BuiltinSkills
import Foundation
import IntentEngine
import Skills

/// `intent reminders`: lists the upcoming reminders.
enum RemindersCommand {
  static let usage = """
    Usage: intent reminders [--json] [--now <ISO 8601>] [--time-zone <zone>]

      --json           print one JSON object: {"reminders": [{id, title, fire_date}]}
      --now            the clock that decides what is upcoming (default: now)
      --time-zone      the zone times are shown in (default: $TZ, else the system zone)

    Reminders live in $INTENT_DATA_DIR (see 'intent run --help').

    """

  static func run(_ arguments: [String], io: CommandIO) async throws -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(arguments, flags: ["--json"], options: ["--now", "--time-zone"])
    if let extra = parsed.positional.first {
      throw UsageError(
        message: "unexpected argument '\(extra)'; 'intent reminders' takes no text")
    }
    let options = try EngineOptions(parsed, io: io)
    let now = options.context.now
    let zone = options.context.timeZone
    let problems = ProblemLog()
    let store = ReminderStore(
      directory: DataDirectory.url(environment: io.environment), wallClock: .fixed(now),
      problems: problems)
    let reminders: [Reminder]
    do {
      reminders = try await store.upcoming()
    } catch {
      io.writeError("error: \(error)\n")
      return 1
    }
    for problem in await problems.drain() { io.writeError("warning: \(problem)\n") }
    if parsed.has("--json") {
      let items: [JSONValue] = reminders.map { reminder in
        .object([
          ("id", .number(Double(reminder.id))), ("title", .string(reminder.title)),
          ("fire_date", .string(Timestamp.iso8601(reminder.fireDate, in: zone))),
        ])
      }
      io.write(JSONValue.object([("reminders", .array(items))]).prettyJSONText + "\n")
      return 0
    }
    guard !reminders.isEmpty else {
      io.write("no upcoming reminders\n")
      return 0
    }
    for reminder in reminders {
      io.write(
        "#\(reminder.id)  \(CommandText.local(reminder.fireDate, in: zone))  \(CommandText.printable(reminder.title))\n"
      )
    }
    return 0
  }
}

/// Text forms the list commands share.
enum CommandText {
  /// A local time, `2026-11-30 09:03:00`.
  static func local(_ date: Date, in zone: TimeZone) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = zone
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: date)
  }

  /// Text with control characters escaped, so stored words cannot drive the terminal.
  static func printable(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.properties.generalCategory == .control {
        out += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
