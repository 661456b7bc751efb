import Foundation
import IntentEngine
import SkillRouter
import Skills

/// `intent learned`: lists the phrases the cloud resolved, or forgets them.
enum LearnedCommand {
  static let usage = """
    Usage: intent learned [--json] [--now <ISO 8601>]
           intent learned --forget [<text>]

      --json           print one JSON object: {"phrases": [{text, intent, slots, count}]}
      --forget         remove the phrase learned for <text> (normalised as the engine reads
                       it), or every learned phrase when no text is given

    Learned phrases are validated cloud answers, kept in $INTENT_DATA_DIR/learned.json and
    answered offline with route 'learned'. The most used come first: they are the ones worth
    writing into a grammar.

    """

  static func run(_ arguments: [String], io: CommandIO) async throws -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    // `--now` and `--time-zone` are accepted like every skill command's; learned phrases keep
    // no times (they are read again from the text at each use), so they change nothing here.
    let parsed = try Arguments(
      arguments, flags: ["--json", "--forget"], options: ["--now", "--time-zone"])
    let problems = ProblemLog()
    let store = LearnedPhraseStore(
      directory: DataDirectory.url(environment: io.environment), problems: problems)
    if parsed.has("--forget") {
      let text = parsed.positional.isEmpty ? nil : parsed.positional.joined(separator: " ")
      let key = text.map { Normalizer().normalize($0).string }
      let removed: Int
      do {
        removed = try await store.forget(key)
      } catch {
        io.writeError("error: \(error)\n")
        return 1
      }
      for problem in await problems.drain() { io.writeError("warning: \(problem)\n") }
      if parsed.has("--json") {
        io.write(JSONValue.object([("forgotten", .number(Double(removed)))]).prettyJSONText + "\n")
      } else if let text, removed == 0 {
        io.write("no learned phrase for '\(text)'\n")
      } else {
        io.write("forgot \(removed) learned phrase\(removed == 1 ? "" : "s")\n")
      }
      return 0
    }
    if let extra = parsed.positional.first {
      throw UsageError(
        message: "unexpected argument '\(extra)'; to remove a phrase use 'intent learned --forget'")
    }
    let phrases = await store.phrases()
    for problem in await problems.drain() { io.writeError("warning: \(problem)\n") }
    if parsed.has("--json") {
      let items: [JSONValue] = phrases.map {
        .object([
          ("text", .string($0.text)), ("intent", .string($0.intent)), ("slots", $0.slots),
          ("count", .number(Double($0.count))),
        ])
      }
      io.write(JSONValue.object([("phrases", .array(items))]).prettyJSONText + "\n")
      return 0
    }
    guard !phrases.isEmpty else {
      io.write("no learned phrases\n")
      return 0
    }
    for phrase in phrases {
      io.write("\(phrase.count)×  \(phrase.text)  → \(phrase.intent) \(phrase.slots.jsonText)\n")
    }
    return 0
  }
}
