// libFuzzer target: raw bytes, decoded leniently as UTF-8, through the whole engine.
// Built and run by scripts/fuzz.sh; a crash is saved to Tests/IntentEngineTests/FuzzRegressions/engine.
import Foundation
import IntentEngine

/// The engine every input is parsed with, built once: a fuzz target's top-level code never runs.
enum EngineFuzzer {
  /// The built-in grammars, compiled once for the whole run.
  static let engine: Engine? = try? Engine.load()

  /// A fixed clock and zone, so that a saved crash replays exactly.
  static let context: ParseContext = {
    var context = ParseContext()
    context.now = Date(timeIntervalSince1970: 1_798_761_600)
    if let zone = TimeZone(identifier: "Asia/Shanghai") { context.timeZone = zone }
    return context
  }()

  /// Parses one input and reads every field a caller would, so that nothing is optimised away.
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let engine else { return 0 }
    let text = String(decoding: bytes, as: UTF8.self)
    let result = engine.parse(text, context: context)
    // A confidence is a probability; anything else would route at random.
    precondition(result.confidence.isFinite && (0...1).contains(result.confidence))
    return result.slotsJSON.jsonText.utf8.count + (result.prompt?.utf8.count ?? 0)
      + result.clauses.count + result.explanation.map(\.detail.utf8.count).reduce(0, +)
  }
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  precondition(EngineFuzzer.run(UnsafeBufferPointer(start: data, count: size)) >= 0)
  return 0
}
