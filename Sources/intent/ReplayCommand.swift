import Foundation
import IntentEngine
import SkillRouter

/// `intent replay`: re-decides a recorded trace with today's grammars and prints what changed.
enum ReplayCommand {
  static let usage = """
    Usage: intent replay [--json] [--all] [--grammars <dir>]… [--no-builtin] <trace.jsonl>

      <trace.jsonl>    a file written by 'intent run --trace'
      --json           print one JSON object per traced utterance: line, text, changed, changes
      --all            list unchanged utterances too
      --grammars       a folder of user grammars, loaded next to the built-ins (repeatable)
      --no-builtin     load only the folders given with --grammars

    Skills are not run and the cloud is not asked again. Exit codes: 0 replayed (changes are
    not failures), 1 the trace cannot be read, 2 usage.

    """

  static func run(_ arguments: [String], io: CommandIO) async throws -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(
      arguments, flags: ["--json", "--all", "--no-builtin"], options: ["--grammars"])
    guard parsed.positional.count == 1, let path = parsed.positional.first else {
      throw UsageError(
        message: parsed.positional.isEmpty
          ? "missing trace file; pass the file written by 'intent run --trace'"
          : "give one trace file, not \(parsed.positional.count)")
    }
    let options = try EngineOptions(parsed, io: io)
    let url = io.url(forPath: path)
    guard let data = FileManager.default.contents(atPath: url.path) else {
      io.writeError("error: cannot read trace file '\(path)'; check the path\n")
      return 1
    }
    guard let engine = options.loadEngine(io: io) else { return 1 }
    let results = Replayer(engine: engine).replay(contentsOf: data)
    var replayed = 0
    var changed = 0
    var unreadable = 0
    for result in results {
      switch result {
      case .failure(let error):
        unreadable += 1
        io.writeError("warning: \(path):\(error.line): \(error.message)\n")
      case .success(let comparison):
        replayed += 1
        if comparison.isChanged { changed += 1 }
        if parsed.has("--json") {
          io.write(comparison.json.jsonText + "\n")
        } else if comparison.isChanged || parsed.has("--all") {
          io.write("line \(comparison.line): '\(comparison.text)'\n")
          if comparison.changes.isEmpty { io.write("  unchanged\n") }
          for change in comparison.changes { io.write("  \(change)\n") }
        }
      }
    }
    let summary =
      "replayed \(replayed) utterance\(replayed == 1 ? "" : "s"): \(changed) changed"
      + (unreadable > 0 ? ", \(unreadable) unreadable line\(unreadable == 1 ? "" : "s")" : "")
    if parsed.has("--json") {
      io.writeError(summary + "\n")
    } else {
      io.write(summary + "\n")
    }
    return 0
  }
}
