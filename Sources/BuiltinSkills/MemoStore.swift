public import Foundation
public import Skills

/// Notes and list items, kept in `memos.json` in the data directory and changed under the lock.
///
/// Checking an item off keeps it (with when), so `intent memos --all` can still show it.
public actor MemoStore {
  /// The file name under the data directory.
  public static let fileName = "memos.json"

  /// The store file.
  public nonisolated var fileURL: URL { file.url }
  private let file: StoreFile<Document>
  private let wallClock: WallClock
  private let problems: ProblemLog?

  typealias Document = EntryDocument<Memo>

  /// Creates a store backed by `memos.json` in `directory`.
  public init(directory: URL, wallClock: WallClock = .system, problems: ProblemLog? = nil) {
    self.file = StoreFile(
      url: directory.appendingPathComponent(Self.fileName), kind: "memo store",
      wallClock: wallClock, problems: problems)
    self.wallClock = wallClock
    self.problems = problems
  }

  /// Adds a memo and returns it.
  public func add(text: String, list: String?) async throws -> Memo {
    let now = wallClock.now
    let url = file.url
    let (memo, repaired) = try await file.update { document in
      let allocation = try document.allocateID(
        in: url, kind: "memo store", remedy: "delete that memo")
      let memo = Memo(id: allocation.id, text: text, list: list, createdAt: now)
      document.entries.append(memo)
      return (memo, allocation.repairedCounter)
    }
    if repaired {
      await problems?.record(
        "memo store '\(url.path)' had an out-of-range 'next_id'; numbered the new memo after the highest id"
      )
    }
    return memo
  }

  /// Every memo, oldest first; open ones only unless `includeDone`.
  public func memos(includeDone: Bool = false) async throws -> [Memo] {
    try await file.read().entries.filter { includeDone || $0.isOpen }
      .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
  }

  /// Checks off the open memos `matching` accepts and returns them, oldest first.
  public func checkOff(where matching: (Memo) -> Bool) async throws -> [Memo] {
    let now = wallClock.now
    return try await file.update { document in
      var done: [Memo] = []
      for index in document.entries.indices
      where document.entries[index].isOpen && matching(document.entries[index]) {
        document.entries[index].doneAt = now
        done.append(document.entries[index])
      }
      return done.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }
  }
}
