// libFuzzer target: the bytes as a trace file (`intent replay`) and as a session file.
// Built and run by scripts/fuzz.sh; a crash is saved to Tests/SkillRouterTests/FuzzRegressions/trace.
import Foundation
import IntentEngine
@testable import Skills

@testable import SkillRouter

/// The replayer every input goes through, built once: a fuzz target's top-level code never runs.
enum TraceFuzzer {
  /// A replayer over the built-in grammars, compiled once for the whole run.
  static let replayer: Replayer? = (try? Engine.load()).map { Replayer(engine: $0) }

  /// Replays one input as a trace and decodes it as a session, as `intent run --session` does.
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let data = Data(buffer: bytes)
    var seen = 0
    if let replayer {
      for result in replayer.replay(contentsOf: data) {
        switch result {
        case .success(let comparison): seen += comparison.json.jsonText.utf8.count
        case .failure(let error): seen += error.description.utf8.count
        }
      }
    }
    switch StoreFile<Conversation>.decoded(data) {
    case .corrupt(let reason): seen += reason.utf8.count
    case .future(let conversation, _), .current(let conversation, _):
      seen += (try? JSONEncoder().encode(conversation))?.count ?? 0
    }
    return seen
  }
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  precondition(TraceFuzzer.run(UnsafeBufferPointer(start: data, count: size)) >= 0)
  return 0
}
