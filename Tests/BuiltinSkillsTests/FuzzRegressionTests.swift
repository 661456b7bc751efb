import Foundation
import TestSupport
import Testing

@testable import BuiltinSkills
@testable import Skills

/// Replays the inputs saved by `scripts/fuzz.sh store`, as that target runs them.
struct FuzzRegressionTests {
  @Test func savedInputsExist() {
    #expect(!FuzzRegressionInput.saved(for: "store", in: "BuiltinSkillsTests").isEmpty)
  }

  @Test(arguments: FuzzRegressionInput.saved(for: "store", in: "BuiltinSkillsTests"))
  func savedStoreFileIsReadOrSetAside(_ input: FuzzRegressionInput) {
    let data = Data(input.bytes)
    check(StoreFile<TimerStore.Document>.decoded(data))
    check(StoreFile<ReminderStore.Document>.decoded(data))
    check(StoreFile<MemoStore.Document>.decoded(data))
    check(StoreFile<LastGoodCache.Entry>.decoded(data))
  }

  /// What was read can be written back, as the store's next change does.
  func check<Document>(
    _ decoded: StoreFile<Document>.Decoded, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    switch decoded {
    case .corrupt(let reason):
      #expect(!reason.isEmpty, sourceLocation: sourceLocation)
    case .future(let document, _), .current(let document, _):
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .iso8601
      #expect((try? encoder.encode(document)) != nil, sourceLocation: sourceLocation)
    }
  }
}
