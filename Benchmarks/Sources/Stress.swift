import Foundation
import IntentEngine

/// What `--stress` found: concurrent parses whose result differed from the sequential run's.
struct StressReport {
  let lines: Int
  let tasks: Int
  let parsesPerTask: Int
  let mismatches: Int
  /// The first differing line, for the report.
  let firstMismatch: String?
  let sequentialNanoseconds: UInt64
  let concurrentNanoseconds: UInt64
}

/// Compares `tasks` tasks sharing one engine, each parsing `parsesPerTask` lines (cycling
/// `texts` from its own start), with one sequential run over the same lines.
///
/// Every result, explanation included, is compared as JSON text: one engine shared by many
/// tasks must answer exactly as it does alone.
func stressRun(
  engine: Engine, texts: [String], context: ParseContext, tasks: Int, parsesPerTask: Int
) async -> StressReport {
  var expected: [String] = []
  expected.reserveCapacity(texts.count)
  let sequential = time {
    for text in texts { expected.append(engine.parse(text, context: context).json().jsonText) }
  }
  let reference = expected
  let start = now()
  let results = await withTaskGroup(of: (mismatches: Int, first: String?).self) { group in
    for task in 0..<tasks {
      group.addTask {
        var mismatches = 0
        var first: String?
        // Each task starts at its own line, so the tasks meet different lines at once.
        var index = (task * 7_919) % max(texts.count, 1)
        for _ in 0..<parsesPerTask {
          let answer = engine.parse(texts[index], context: context).json().jsonText
          if answer != reference[index] {
            mismatches += 1
            if first == nil { first = texts[index] }
          }
          index += 1
          if index == texts.count { index = 0 }
        }
        return (mismatches, first)
      }
    }
    var all: [(mismatches: Int, first: String?)] = []
    for await result in group { all.append(result) }
    return all
  }
  let concurrent = now() &- start
  return StressReport(
    lines: texts.count, tasks: tasks, parsesPerTask: parsesPerTask,
    mismatches: results.map(\.mismatches).reduce(0, +),
    firstMismatch: results.compactMap(\.first).first, sequentialNanoseconds: sequential,
    concurrentNanoseconds: concurrent)
}
