import BuiltinSkills
import Foundation
import IntentEngine
import Skills

/// `intent timers`: lists the running timers with the time left.
enum TimersCommand {
  static let usage = """
    Usage: intent timers [--json] [--now <ISO 8601>] [--time-zone <zone>]

      --json           print one JSON object: {"timers": [{id, label, duration, fire_date,
                       remaining_seconds, paused}]}
      --now            the clock to measure the time left against (default: now)
      --time-zone      the zone fire times are shown in (default: $TZ, else the system zone)

    Timers live in $INTENT_DATA_DIR (see 'intent run --help').

    """

  static func run(_ arguments: [String], io: CommandIO) async throws -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(arguments, flags: ["--json"], options: ["--now", "--time-zone"])
    if let extra = parsed.positional.first {
      throw UsageError(message: "unexpected argument '\(extra)'; 'intent timers' takes no text")
    }
    let options = try EngineOptions(parsed, io: io)
    let now = options.context.now
    let zone = options.context.timeZone
    let problems = ProblemLog()
    let store = TimerStore(
      directory: DataDirectory.url(environment: io.environment), wallClock: .fixed(now),
      problems: problems)
    let timers = await store.runningTimers()
    for problem in await problems.drain() { io.writeError("warning: \(problem)\n") }

    if parsed.has("--json") {
      let items: [JSONValue] = timers.map { timer in
        .object([
          ("id", .number(Double(timer.id))), ("label", .string(timer.label)),
          ("duration", .number(timer.duration)),
          ("fire_date", .string(TimerFormatting.iso8601(timer.fireDate, in: zone))),
          ("remaining_seconds", .number(timer.remaining(at: now).rounded(.up))),
          ("paused", .bool(timer.isPaused)),
        ])
      }
      io.write(JSONValue.object([("timers", .array(items))]).prettyJSONText + "\n")
      return 0
    }
    guard !timers.isEmpty else {
      io.write("no timers are running\n")
      return 0
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = zone
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    for timer in timers {
      let left = TimerFormatting.duration(timer.remaining(at: now))
      if timer.isPaused {
        io.write("#\(timer.id)  \(timer.label)  \(left) left  (paused)\n")
        continue
      }
      io.write(
        "#\(timer.id)  \(timer.label)  \(left) left  (fires \(formatter.string(from: timer.fireDate)))\n"
      )
    }
    return 0
  }
}
