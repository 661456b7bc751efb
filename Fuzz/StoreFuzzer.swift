// libFuzzer target: the bytes as each store file a user's folder holds, decoded as StoreFile does.
// Built and run by scripts/fuzz.sh; a crash is saved to Tests/BuiltinSkillsTests/FuzzRegressions/store.
import Foundation

@testable import BuiltinSkills
@testable import Skills

/// The store decoders every input goes through; they keep no state between inputs.
enum StoreFuzzer {
  /// Decodes one input as the timer, reminder and memo stores and a last-good cache entry.
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let data = Data(buffer: bytes)
    return outcome(StoreFile<TimerStore.Document>.decoded(data))
      + outcome(StoreFile<ReminderStore.Document>.decoded(data))
      + outcome(StoreFile<MemoStore.Document>.decoded(data))
      + outcome(StoreFile<LastGoodCache.Entry>.decoded(data))
  }

  /// Re-encodes what was read, as the store's next write would.
  static func outcome<Document>(_ decoded: StoreFile<Document>.Decoded) -> Int {
    switch decoded {
    case .corrupt(let reason): return reason.utf8.count
    case .future(let document, _), .current(let document, _):
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      encoder.dateEncodingStrategy = .iso8601
      return (try? encoder.encode(document))?.count ?? 0
    }
  }
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  precondition(StoreFuzzer.run(UnsafeBufferPointer(start: data, count: size)) >= 0)
  return 0
}
