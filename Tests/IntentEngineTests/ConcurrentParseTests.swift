import Foundation
import IntentEngine
import TestSupport
import Testing

/// One engine shared by many tasks answers exactly as it does alone: compiled grammars and the
/// scorer hold no mutable state.
struct ConcurrentParseTests {
  static let context = EngineBehaviourTests.context

  /// Every tenth `dev` line of the sister-intent and follow-up fixtures, both languages.
  static func lines() throws -> [String] {
    var texts: [String] = []
    for language in ["en", "zh"] {
      for name in ["timer.status", "reminder.list", "memo.list", "followups", "extra_dev32"] {
        let url = FixturePaths.fixtures.appendingPathComponent("\(language)/\(name).jsonl")
        let content = try String(contentsOf: url, encoding: .utf8)
        for line in content.split(separator: "\n") {
          guard case .object(let members)? = try? JSONValue(parsing: Data(line.utf8)),
            let text = members.first(where: { $0.0 == "text" })?.1.stringValue
          else { continue }
          texts.append(text)
        }
      }
    }
    return texts.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
  }

  @Test func eightTasksSharingOneEngineAgreeWithASequentialRun() async throws {
    let engine = try Engine.load()
    let texts = try Self.lines()
    #expect(texts.count > 100)
    let expected = texts.map { engine.parse($0, context: Self.context).json().jsonText }
    let runs = await withTaskGroup(of: [String].self) { group in
      for task in 0..<8 {
        group.addTask {
          // Each task walks the lines from its own start, so they meet different lines at once.
          let order = texts.indices.map { ($0 + task * 37) % texts.count }
          var answers = [String](repeating: "", count: texts.count)
          for index in order {
            answers[index] = engine.parse(texts[index], context: Self.context).json().jsonText
          }
          return answers
        }
      }
      var all: [[String]] = []
      for await answers in group { all.append(answers) }
      return all
    }
    #expect(runs.count == 8)
    for answers in runs { #expect(answers == expected) }
  }
}
