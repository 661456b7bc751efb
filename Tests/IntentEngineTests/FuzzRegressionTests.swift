import Foundation
import IntentEngine
import TestSupport
import Testing

/// Replays the inputs saved by `scripts/fuzz.sh engine` and `grammar`, as those targets run them.
struct FuzzRegressionTests {
  static let engine: Engine? = try? Engine.load()

  @Test func savedInputsExistForBothTargets() {
    #expect(!FuzzRegressionInput.saved(for: "engine", in: "IntentEngineTests").isEmpty)
    #expect(!FuzzRegressionInput.saved(for: "grammar", in: "IntentEngineTests").isEmpty)
  }

  @Test(arguments: FuzzRegressionInput.saved(for: "engine", in: "IntentEngineTests"))
  func savedUtteranceParsesToAProbability(_ input: FuzzRegressionInput) throws {
    let engine = try #require(Self.engine)
    let context = ParseContext(
      now: Date(timeIntervalSince1970: 1_798_761_600),
      timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)
    let result = engine.parse(input.text, context: context)
    #expect(result.confidence.isFinite && (0...1).contains(result.confidence))
    #expect(result.clauses.count <= Engine.maximumClauses)
    _ = result.slotsJSON.jsonText
  }

  @Test(arguments: FuzzRegressionInput.saved(for: "grammar", in: "IntentEngineTests"))
  func savedGrammarCompilesOrSaysWhy(_ input: FuzzRegressionInput) {
    let language = input.bytes.first.map { $0 & 1 == 1 } == true ? "en" : "zh"
    let source = GrammarSource(path: "fuzz.grammar", language: language, text: input.text)
    switch GrammarCompiler().compile([source], extraWords: []) {
    case .success: break
    case .failure(let error):
      #expect(!error.diagnostics.isEmpty)
      for diagnostic in error.diagnostics {
        #expect(diagnostic.description.hasPrefix("fuzz.grammar:"))
      }
    }
  }
}
