import BuiltinSkills
import Foundation
import IntentEngine
import Skills

/// `intent memos`: lists the open notes and list items.
enum MemosCommand {
  static let usage = """
    Usage: intent memos [--list <name>] [--all] [--json] [--now <ISO 8601>] [--time-zone <zone>]

      --list           only this list: 'shopping' (购物清单, grocery list), 'todo' (待办,
                       to-do list) or a list's own name
      --all            include items that were checked off
      --json           print one JSON object: {"memos": [{id, text, list, created_at, done}]}
      --now            accepted for symmetry with the other commands (default: now)
      --time-zone      the zone times are shown in (default: $TZ, else the system zone)

    Memos live in $INTENT_DATA_DIR (see 'intent run --help').

    """

  static func run(_ arguments: [String], io: CommandIO) async throws -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(
      arguments, flags: ["--json", "--all"], options: ["--now", "--time-zone", "--list"])
    if let extra = parsed.positional.first {
      throw UsageError(message: "unexpected argument '\(extra)'; 'intent memos' takes no text")
    }
    let options = try EngineOptions(parsed, io: io)
    let zone = options.context.timeZone
    let problems = ProblemLog()
    let store = MemoStore(
      directory: DataDirectory.url(environment: io.environment),
      wallClock: .fixed(options.context.now), problems: problems)
    var memos: [Memo]
    do {
      memos = try await store.memos(includeDone: parsed.has("--all"))
    } catch {
      io.writeError("error: \(error)\n")
      return 1
    }
    for problem in await problems.drain() { io.writeError("warning: \(problem)\n") }
    let list = parsed.value("--list").map(MemoLists.normalizedName)
    if let list { memos = memos.filter { $0.list == list } }
    if parsed.has("--json") {
      let items: [JSONValue] = memos.map { memo in
        .object([
          ("id", .number(Double(memo.id))), ("text", .string(memo.text)),
          ("list", memo.list.map { .string($0) } ?? .null),
          ("created_at", .string(Timestamp.iso8601(memo.createdAt, in: zone))),
          ("done", .bool(!memo.isOpen)),
        ])
      }
      io.write(JSONValue.object([("memos", .array(items))]).prettyJSONText + "\n")
      return 0
    }
    guard !memos.isEmpty else {
      io.write(list.map { "the list '\($0)' is empty\n" } ?? "no memos\n")
      return 0
    }
    for memo in memos {
      let place = memo.list.map { "[\(CommandText.printable($0))]  " } ?? ""
      let done = memo.isOpen ? "" : "  (done)"
      io.write(
        "#\(memo.id)  \(place)\(CommandText.printable(memo.text))  (added \(CommandText.local(memo.createdAt, in: zone)))\(done)\n"
      )
    }
    return 0
  }
}
