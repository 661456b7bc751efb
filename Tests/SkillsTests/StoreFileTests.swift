import Foundation
import Skills
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small store document: numbered notes.
struct NoteDocument: StoreDocument {
  struct Note: Codable, Sendable, Equatable {
    var id: Int
    var text: String
  }

  static var formatVersion: Int { 1 }
  var version = 1
  var nextID = 1
  var notes: [Note] = []

  enum CodingKeys: String, CodingKey {
    case version, notes
    case nextID = "next_id"
  }

  init() {}

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
    nextID = (try? container.decodeIfPresent(Int.self, forKey: .nextID)) ?? 0
    notes = try StoreSalvage.decodeEntries(
      Note.self, from: container, forKey: .notes, decoder: decoder)
  }
}

struct StoreFileTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func store(_ folder: TemporaryDirectory, problems: ProblemLog? = nil) -> StoreFile<NoteDocument> {
    var store = StoreFile<NoteDocument>(
      url: folder.url.appendingPathComponent("notes.json"), kind: "note store",
      wallClock: .fixed(now), problems: problems)
    // Twenty writers queue for one lock; under a sanitizer on a loaded machine they can take
    // longer than the default wait, and these tests are about losing nothing, not about speed.
    store.lockTimeout = .seconds(120)
    return store
  }

  func add(_ text: String, to store: StoreFile<NoteDocument>) async throws -> Int {
    try await store.update { document in
      let allocation = try #require(
        StoreIdentifiers.allocate(counter: document.nextID, existing: document.notes.map(\.id)))
      document.nextID = allocation.nextID
      document.notes.append(.init(id: allocation.id, text: text))
      return allocation.id
    }
  }

  @Test func concurrentWritersThroughSeparateHandlesLoseNothing() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    // Each task opens the lock file itself, as separate processes do.
    let ids = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<20 {
        group.addTask { try await add("note \(index)", to: store(folder)) }
      }
      var ids: [Int] = []
      for try await id in group { ids.append(id) }
      return ids
    }
    let notes = try await store(folder).read().notes
    #expect(notes.count == 20)
    #expect(Set(notes.map(\.id)).count == 20)
    #expect(Set(ids) == Set(notes.map(\.id)))
  }

  @Test func aFutureVersionIsReadButNeverRewritten() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let problems = ProblemLog()
    let notes = store(folder, problems: problems)
    let original = #"{"version":99,"notes":[{"id":1,"text":"keep"}],"colour":"blue"}"#
    try Data(original.utf8).write(to: notes.url)

    #expect(try await notes.read().notes.map(\.text) == ["keep"])
    await #expect(
      throws: SkillError.failed(
        "note store '\(notes.url.path)' has format version 99, newer than this build writes (1); not changing it so that nothing in it is lost; update intent or move the file away"
      )
    ) {
      _ = try await add("new", to: notes)
    }
    #expect(try String(contentsOf: notes.url, encoding: .utf8) == original)
    let reports = await problems.drain()
    #expect(reports.first?.contains("has format version 99, newer than this build reads") == true)
  }

  @Test func aMalformedEntryIsDroppedButTheOthersAndTheOriginalAreKept() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let problems = ProblemLog()
    let notes = store(folder, problems: problems)
    let original =
      #"{"version":1,"next_id":4,"notes":[{"id":1,"text":"a"},{"id":"two"},{"id":3,"text":"c"}]}"#
    try Data(original.utf8).write(to: notes.url)

    #expect(try await notes.read().notes.map(\.text) == ["a", "c"])
    let reports = await problems.drain()
    #expect(reports.count == 1)
    #expect(reports.first?.contains("had 1 entry that cannot be read; kept the others") == true)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    let aside = try #require(names.first { $0.hasPrefix("notes.json.corrupt-") })
    #expect(
      try String(contentsOf: folder.url.appendingPathComponent(aside), encoding: .utf8) == original)
    #expect(try await add("d", to: notes) == 4)
    #expect(try await notes.read().notes.map(\.text) == ["a", "c", "d"])
  }

  @Test func aFileThatIsNotJSONIsSetAsideAndTheStoreStartsEmpty() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let problems = ProblemLog()
    let notes = store(folder, problems: problems)
    try Data("{ half".utf8).write(to: notes.url)
    #expect(try await add("a", to: notes) == 1)
    #expect(await problems.drain().first?.contains("is corrupt; moved it to") == true)
  }

  @Test func aFileOverTheSizeLimitIsRefusedAndLeftAsItIs() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let notes = store(folder)
    #expect(notes.maximumBytes == 8 << 20)
    // Valid JSON, one byte over the limit: refused for its size, not set aside as corrupt.
    let head = Data(#"{"version": 1, "next_id": 2, "notes": [{"id": 1, "text": "a"}]}"#.utf8)
    let padded = head + Data(repeating: 0x20, count: notes.maximumBytes + 1 - head.count)
    try padded.write(to: notes.url)
    let message =
      "note store '\(notes.url.path)' is \(notes.maximumBytes + 1) bytes; a store file holds at most \(notes.maximumBytes); move it away or remove entries from it"
    await #expect(throws: SkillError.failed(message)) { try await notes.read() }
    await #expect(throws: SkillError.failed(message)) { try await add("b", to: notes) }
    #expect(try Data(contentsOf: notes.url) == padded)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(!names.contains { $0.contains(".corrupt-") })
  }

  @Test func aWriteThatWouldGrowPastTheLimitChangesNothing() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var notes = store(folder)
    notes.maximumBytes = 300
    var added = 0
    var refusal: (any Error)?
    while refusal == nil, added < 50 {
      do {
        _ = try await add("note \(added)", to: notes)
        added += 1
      } catch {
        refusal = error
      }
    }
    #expect(added > 0)
    let before = try Data(contentsOf: notes.url)
    #expect(before.count <= 300)
    let description = try #require(refusal.map { "\($0)" })
    #expect(description.hasPrefix("note store '\(notes.url.path)' would grow to "))
    #expect(
      description.hasSuffix(" bytes; a store file holds at most 300; remove some entries first"))
    #expect(try await notes.read().notes.map(\.text) == (0..<added).map { "note \($0)" })
    #expect(try Data(contentsOf: notes.url) == before)
  }

  @Test func staleTemporaryFilesAreRemovedWhenTheStoreIsNextOpened() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let notes = store(folder)
    let old = folder.url.appendingPathComponent(".notes.json.\(UUID().uuidString).tmp")
    try Data("old".utf8).write(to: old)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: old.path)
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/sh")
    finished.arguments = ["-c", "exit 0"]
    try finished.run()
    finished.waitUntilExit()
    let orphan = folder.url.appendingPathComponent(
      ".notes.json.\(UUID().uuidString).p\(finished.processIdentifier).tmp")
    try Data("orphan".utf8).write(to: orphan)
    let live = folder.url.appendingPathComponent(
      ".notes.json.\(UUID().uuidString).p\(getpid()).tmp")
    try Data("live".utf8).write(to: live)

    _ = try await add("a", to: notes)
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    #expect(!names.contains(old.lastPathComponent))
    #expect(!names.contains(orphan.lastPathComponent))
    #expect(names.contains(live.lastPathComponent))
  }

  @Test(
    arguments: [
      (1, [], StoreIdentifiers.Allocation(id: 1, nextID: 2, repairedCounter: false)),
      (0, [4, 2], .init(id: 5, nextID: 6, repairedCounter: false)),
      (9, [4], .init(id: 9, nextID: 10, repairedCounter: false)),
      (Int.max, [], .init(id: 1, nextID: 2, repairedCounter: true)),
      (Int.max, [7], .init(id: 8, nextID: 9, repairedCounter: true)),
      (-5, [], .init(id: 1, nextID: 2, repairedCounter: false)),
    ] as [(Int, [Int], StoreIdentifiers.Allocation)])
  func allocatesIDsWithCheckedArithmetic(
    counter: Int, existing: [Int], expected: StoreIdentifiers.Allocation
  ) {
    #expect(StoreIdentifiers.allocate(counter: counter, existing: existing) == expected)
  }

  @Test func anIDAtTheLargestNumberLeavesNoneToAllocate() {
    #expect(StoreIdentifiers.allocate(counter: 1, existing: [Int.max]) == nil)
    #expect(StoreIdentifiers.allocate(counter: 1, existing: [Int.max - 1]) == nil)
  }
}
