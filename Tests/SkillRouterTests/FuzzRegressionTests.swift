import Foundation
import IntentEngine
@testable import Skills
import TestSupport
import Testing

@testable import SkillRouter

/// Replays the inputs saved by `scripts/fuzz.sh trace`, as that target runs them.
struct FuzzRegressionTests {
  static let engine = Result { try Engine.load() }

  @Test func savedInputsExist() {
    #expect(!FuzzRegressionInput.saved(for: "trace", in: "SkillRouterTests").isEmpty)
  }

  @Test(arguments: FuzzRegressionInput.saved(for: "trace", in: "SkillRouterTests"))
  func savedTraceReplaysOrNamesTheBadLine(_ input: FuzzRegressionInput) throws {
    let replayer = Replayer(engine: try Self.engine.get())
    let lineCount = input.bytes.split(separator: 10, omittingEmptySubsequences: false).count
    for result in replayer.replay(contentsOf: Data(input.bytes)) {
      switch result {
      case .success(let comparison):
        #expect((1...lineCount).contains(comparison.line))
        _ = comparison.json.jsonText
      case .failure(let error):
        #expect((1...lineCount).contains(error.line))
      }
    }
    if case .corrupt(let reason) = StoreFile<Conversation>.decoded(Data(input.bytes)) {
      #expect(!reason.isEmpty)
    }
  }
}
