public import Foundation

/// What the last-good cache is keyed by: the skill's intent and its canonical input.
public struct CacheKey: Hashable, Sendable {
  /// The intent the skill serves.
  public var intentID: String
  /// The input as canonical JSON (sorted keys).
  public var canonicalInput: Data

  /// Creates a key.
  public init(intentID: String, canonicalInput: Data) {
    self.intentID = intentID
    self.canonicalInput = canonicalInput
  }

  /// A stable file name: a 64-bit FNV-1a hash of intent and input, in hex.
  var fileName: String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in Array(intentID.utf8) + [0] + Array(canonicalInput) {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex + ".json"
  }
}

/// A result the cache returns in place of a failed call.
public struct CachedResult: Sendable, Equatable {
  /// The output as JSON, exactly as the skill returned it.
  public var output: Data
  /// When the skill returned it.
  public var storedAt: Date
  /// How old it is now, in seconds.
  public var age: TimeInterval
}

/// The last successful result of each network skill and input, kept on disk for offline use.
///
/// One file per entry under `directory`, written atomically. The cache holds at most `capacity`
/// entries and drops the oldest first. An entry that cannot be read is moved aside and reported
/// to `problems`, never deleted and never a crash.
public actor LastGoodCache {
  /// The folder holding the entries.
  public let directory: URL
  /// Most entries kept.
  public let capacity: Int
  private let wallClock: WallClock
  private let problems: ProblemLog?

  /// Creates a cache in `directory`; nothing is read or written until it is used.
  public init(
    directory: URL, capacity: Int = 256, wallClock: WallClock = .system,
    problems: ProblemLog? = nil
  ) {
    self.directory = directory
    self.capacity = max(1, capacity)
    self.wallClock = wallClock
    self.problems = problems
  }

  /// The stored form of one entry; an empty `intent` means no entry.
  struct Entry: StoreDocument {
    static var formatVersion: Int { 1 }
    var version = 1
    var intent = ""
    var input = ""
    var storedAt = 0.0
    var output = ""

    enum CodingKeys: String, CodingKey {
      case version, intent, input, output
      case storedAt = "stored_at"
    }

    init() {}

    init(intent: String, input: String, storedAt: Double, output: String) {
      self.intent = intent
      self.input = input
      self.storedAt = storedAt
      self.output = output
    }

    /// Decodes an entry, refusing one whose output is not JSON.
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
      intent = try container.decode(String.self, forKey: .intent)
      input = try container.decode(String.self, forKey: .input)
      storedAt = try container.decode(Double.self, forKey: .storedAt)
      output = try container.decode(String.self, forKey: .output)
      guard storedAt.isFinite,
        (try? JSONSerialization.jsonObject(with: Data(output.utf8), options: [.fragmentsAllowed]))
          != nil
      else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "output is not JSON"))
      }
    }
  }

  /// The store file of one entry; one lock guards the whole folder.
  private func file(named name: String) -> StoreFile<Entry> {
    StoreFile(
      url: directory.appendingPathComponent(name), kind: "last-good cache entry",
      lockURL: directory.appendingPathComponent(".cache.lock"), wallClock: wallClock,
      problems: problems)
  }

  /// Stores a successful output, replacing any older one for the same key.
  ///
  /// A failed write is recorded as a problem: losing a cache entry must not fail the call.
  public func store(_ output: Data, for key: CacheKey) async {
    let entry = Entry(
      intent: key.intentID, input: String(decoding: key.canonicalInput, as: UTF8.self),
      storedAt: wallClock.now.timeIntervalSince1970, output: String(decoding: output, as: UTF8.self)
    )
    do {
      try await file(named: key.fileName).update { $0 = entry }
    } catch {
      await problems?.record("last-good cache: \(error)")
      return
    }
    await evictOldest()
  }

  /// The last good result for `key`, with its age, or nil when there is none.
  public func lastGood(for key: CacheKey) async -> CachedResult? {
    guard let entry = await read(key.fileName), !entry.intent.isEmpty else { return nil }
    guard entry.intent == key.intentID,
      entry.input == String(decoding: key.canonicalInput, as: UTF8.self)
    else { return nil }
    let storedAt = Date(timeIntervalSince1970: entry.storedAt)
    return CachedResult(
      output: Data(entry.output.utf8), storedAt: storedAt,
      age: max(0, wallClock.now.timeIntervalSince(storedAt)))
  }

  /// Reads an entry; a file that is not a valid entry is set aside and reported by the store.
  private func read(_ name: String) async -> Entry? {
    do {
      return try await file(named: name).read()
    } catch {
      await problems?.record("last-good cache: \(error)")
      return nil
    }
  }

  /// Removes the oldest entries beyond `capacity`.
  private func evictOldest() async {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
    } catch {
      return
    }
    guard names.count > capacity else { return }
    var dated: [(name: String, storedAt: Double)] = []
    for name in names {
      if let entry = await read(name), !entry.intent.isEmpty {
        dated.append((name, entry.storedAt))
      }
    }
    dated.sort { ($0.storedAt, $0.name) < ($1.storedAt, $1.name) }
    for old in dated.prefix(max(0, dated.count - capacity)) {
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(old.name))
    }
  }
}
