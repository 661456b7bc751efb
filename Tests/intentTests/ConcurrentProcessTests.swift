import Foundation
import TestSupport
import Testing

struct ConcurrentProcessTests {
  /// Twenty `intent run` processes started at once against one data folder, each adding one
  /// entry to the same store: every entry a process reported is listed, under its own id.
  @Test(arguments: WrittenStore.allCases)
  func twentyProcessesWritingOneStoreAtOnceLoseNone(_ store: WrittenStore) async throws {
    let writers = try StoreWriters()
    defer { writers.folder.remove() }
    let processes = try StoreWriters.things.enumerated().map { index, thing in
      try writers.startRun(store.utterance(about: thing), name: "\(store)-\(index)")
    }
    var reported: [Int: String] = [:]
    for process in processes {
      let ending = await process.waitForExit()
      #expect(ending == .exited(0), "\(process.errorText)")
      #expect(process.errorText.isEmpty)
      let write = StoreWriters.reportedWrite(of: process, in: store)
      #expect(write != nil, "no confirmation in \(String(decoding: process.output, as: UTF8.self))")
      if let write {
        #expect(reported[write.id] == nil, "id \(write.id) was reported twice")
        reported[write.id] = write.text
      }
    }
    #expect(reported.count == 20)
    #expect(Set(reported.values) == Set(StoreWriters.things.map(store.entryText(about:))))

    let listed = try #require(try await writers.list(store))
    #expect(listed.count == 20)
    #expect(Set(listed.map(\.id)).count == listed.count, "ids are unique")
    #expect(
      Dictionary(listed.map { ($0.id, $0.text) }, uniquingKeysWith: { a, _ in a }) == reported)
    #expect(writers.setAsideFiles().isEmpty)
  }
}
