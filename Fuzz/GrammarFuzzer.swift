// libFuzzer target: the bytes as one grammar file through the parser, validation and compiler.
// Built and run by scripts/fuzz.sh; a crash is saved to Tests/IntentEngineTests/FuzzRegressions/grammar.
import Foundation
import IntentEngine

/// The compiler every input goes through, built once: a fuzz target's top-level code never runs.
enum GrammarFuzzer {
  /// A compiler holds no per-file state, so one serves the whole run.
  static let compiler = GrammarCompiler()

  /// Compiles one input; an odd first byte reads it as an English file, otherwise as Chinese.
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let text = String(decoding: bytes, as: UTF8.self)
    let language = bytes.first.map { $0 & 1 == 1 } == true ? "en" : "zh"
    let source = GrammarSource(path: "fuzz.grammar", language: language, text: text)
    switch compiler.compile([source], extraWords: []) {
    case .success(let grammar):
      return grammar.intentSpecs.count + grammar.warnings.map(\.description.utf8.count).reduce(0, +)
    case .failure(let error):
      // A failed load always says why.
      precondition(!error.diagnostics.isEmpty)
      return error.diagnostics.map(\.description.utf8.count).reduce(0, +)
    }
  }
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  precondition(GrammarFuzzer.run(UnsafeBufferPointer(start: data, count: size)) >= 0)
  return 0
}
