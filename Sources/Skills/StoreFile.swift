public import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A document a ``StoreFile`` keeps: Codable, with a format version written beside its data.
///
/// ## Implementation requirements
///
/// - `init()` is the empty store, used before anything was written and after a corrupt file was
///   set aside.
/// - Decode lists of entries with ``StoreSalvage/decodeEntries(_:from:forKey:decoder:)`` so that
///   one malformed entry does not lose the others.
public protocol StoreDocument: Codable, Sendable {
  /// The format version this build reads and writes; a file with a higher one is never rewritten.
  static var formatVersion: Int { get }
  /// The format version, set to ``formatVersion`` on every write.
  var version: Int { get set }
  /// The empty store.
  init()
}

/// One JSON store file that any number of processes read and change without losing writes.
///
/// Every change is a read-modify-write under an exclusive `flock` on a sibling lock file, and the
/// result is written atomically (``AtomicFile``). While the lock is held, temporary files left
/// by writers that died (kill -9) are removed. A file that is not JSON is set aside and the store
/// starts empty; entries that cannot be decoded are dropped after the original is set aside, so
/// nothing is lost; a file from a newer format version is read but never rewritten. Each such
/// event is reported to `problems`.
public struct StoreFile<Document: StoreDocument>: Sendable {
  /// The store file.
  public let url: URL
  /// The file whose lock guards `url`; by default `.<name>.lock` beside it.
  public let lockURL: URL
  /// What the store holds, for messages: `timer store`.
  public let kind: String
  /// Longest wait for another process's lock before giving up.
  public var lockTimeout: Duration = .seconds(10)
  /// Largest file read or written, in bytes; 8 MiB holds tens of thousands of entries, and the
  /// bound keeps every read of a store quick however the file grew.
  public var maximumBytes = 8 << 20
  private let wallClock: WallClock
  private let problems: ProblemLog?

  /// Age after which a temporary file is stale even when its writer's pid is alive (pids are
  /// reused); a write takes milliseconds, so a minute leaves a wide margin.
  static var staleTemporaryAge: TimeInterval { 60 }

  /// Creates a store over `url`; nothing is read or written until it is used.
  public init(
    url: URL, kind: String, lockURL: URL? = nil, wallClock: WallClock = .system,
    problems: ProblemLog? = nil
  ) {
    self.url = url
    self.kind = kind
    self.lockURL =
      lockURL
      ?? url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock")
    self.wallClock = wallClock
    self.problems = problems
  }

  /// Reads the document, repairing the file (under the lock) when it had to be set aside.
  ///
  /// - Throws: ``SkillError/failed(_:)`` when the file or lock cannot be read.
  public func read() async throws -> Document {
    guard FileManager.default.fileExists(atPath: url.path) else { return Document() }
    return try await locked { loaded in loaded.document }
  }

  /// Changes the document under the lock and writes it back atomically; returns what `change`
  /// returns.
  ///
  /// When `change` throws, nothing is written.
  /// - Throws: what `change` throws, or ``SkillError/failed(_:)`` when the file is of a newer
  ///   format version, or cannot be read or written.
  public func update<Value>(_ change: (inout Document) throws -> Value) async throws -> Value {
    try await locked { loaded in
      if let future = loaded.futureVersion {
        throw SkillError.failed(
          "\(kind) '\(url.path)' has format version \(future), newer than this build writes (\(Document.formatVersion)); not changing it so that nothing in it is lost; update intent or move the file away"
        )
      }
      var document = loaded.document
      let result = try change(&document)
      try write(document)
      return result
    }
  }

  /// What was read from disk under the lock.
  struct Loaded {
    var document: Document
    /// The file's version when it is newer than this build's.
    var futureVersion: Int?
  }

  /// Runs `body` on the loaded document while holding the lock, then reports what was found.
  private func locked<Value>(_ body: (Loaded) throws -> Value) async throws -> Value {
    var notes: [String] = []
    let outcome: Swift.Result<Value, any Error>
    do {
      let descriptor = try await FileLock.acquire(
        lockURL, timeout: lockTimeout, holder: "\(kind) '\(url.path)'")
      defer { close(descriptor) }
      removeStaleTemporaries()
      let loaded = try load(notes: &notes)
      outcome = .success(try body(loaded))
    } catch {
      outcome = .failure(error)
    }
    for note in notes { await problems?.record(note) }
    return try outcome.get()
  }

  /// Reads and decodes the file, setting it aside when it cannot be used as it is.
  private func load(notes: inout [String]) throws -> Loaded {
    guard FileManager.default.fileExists(atPath: url.path) else {
      return Loaded(document: Document())
    }
    if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
      size > maximumBytes
    {
      throw SkillError.failed(
        "\(kind) '\(url.path)' is \(size) bytes; a store file holds at most \(maximumBytes); move it away or remove entries from it"
      )
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw SkillError.failed("cannot read \(kind) '\(url.path)'; check its permissions")
    }
    let document: Document
    let dropped: Int
    switch Self.decoded(data) {
    case .corrupt(let reason):
      setAside(reason: reason, notes: &notes)
      return Loaded(document: Document())
    case .future(let readable, let version):
      notes.append(
        "\(kind) '\(url.path)' has format version \(version), newer than this build reads (\(Document.formatVersion)); showing what could be read and leaving the file unchanged"
      )
      return Loaded(document: readable, futureVersion: version)
    case .current(let readable, let droppedEntries):
      document = readable
      dropped = droppedEntries
    }
    if dropped > 0 {
      let entries = dropped == 1 ? "1 entry" : "\(dropped) entries"
      guard let moved = try? AtomicFile.setAside(url, at: wallClock.now) else {
        throw SkillError.failed(
          "\(kind) '\(url.path)' has \(entries) that cannot be read and cannot be moved aside; check that the folder is writable"
        )
      }
      try write(document)
      notes.append(
        "\(kind) '\(url.path)' had \(entries) that cannot be read; kept the others and moved the original to '\(moved.path)'"
      )
    }
    return Loaded(document: document)
  }

  /// What a store file's bytes hold, as ``decoded(_:)`` decides it.
  enum Decoded {
    /// Unusable as it is (the reason completes "… 'path' <reason>"): set aside, start empty.
    case corrupt(reason: String)
    /// Written by a newer build: what could be read; the file is never rewritten.
    case future(Document, version: Int)
    /// This build's format or an older one, with the count of entries that could not be read.
    case current(Document, dropped: Int)
  }

  /// Decodes a store file's bytes without touching the disk; never traps on any input.
  static func decoded(_ data: Data) -> Decoded {
    let version: Int
    do {
      version = try JSONDecoder().decode(Header.self, from: data).version ?? 1
    } catch {
      return .corrupt(reason: "is corrupt")
    }
    guard version >= 1 else {
      return .corrupt(reason: "has an invalid format version \(version)")
    }
    let salvage = StoreSalvage.Count()
    let decoder = Self.decoder(salvage: salvage)
    if version > Document.formatVersion {
      return .future(
        (try? decoder.decode(Document.self, from: data)) ?? Document(), version: version)
    }
    do {
      return .current(try decoder.decode(Document.self, from: data), dropped: salvage.value)
    } catch {
      return .corrupt(reason: "is corrupt")
    }
  }

  private func setAside(reason: String, notes: inout [String]) {
    do {
      let moved = try AtomicFile.setAside(url, at: wallClock.now)
      notes.append(
        "\(kind) '\(url.path)' \(reason); moved it to '\(moved.path)' and started afresh")
    } catch {
      notes.append("\(kind) '\(url.path)' \(reason) and could not be moved aside: \(error)")
    }
  }

  private func write(_ document: Document) throws {
    var document = document
    document.version = Document.formatVersion
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let data: Data
    do {
      data = try encoder.encode(document)
    } catch {
      throw SkillError.failed("\(kind) cannot be encoded: \(error)")
    }
    guard data.count <= maximumBytes else {
      throw SkillError.failed(
        "\(kind) '\(url.path)' would grow to \(data.count) bytes; a store file holds at most \(maximumBytes); remove some entries first"
      )
    }
    try AtomicFile.write(data, to: url)
  }

  /// Removes temporary files of this store whose writer is gone or that are over a minute old.
  ///
  /// Called only under the lock, when no writer of this store can be mid-write.
  private func removeStaleTemporaries() {
    let folder = url.deletingLastPathComponent()
    let prefix = ".\(url.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      return
    }
    let now = Date()
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let file = folder.appendingPathComponent(name)
      var isStale = false
      if let pid = AtomicFile.writerPID(ofTemporaryNamed: name), pid > 0 {
        isStale = kill(pid, 0) != 0 && errno == ESRCH
      }
      if !isStale,
        let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[
          .modificationDate] as? Date
      {
        isStale = now.timeIntervalSince(modified) > Self.staleTemporaryAge
      }
      if isStale { try? FileManager.default.removeItem(at: file) }
    }
  }

  /// The version field alone; decoding it first tells a future format from a corrupt one.
  private struct Header: Decodable {
    var version: Int?
  }

  static func decoder(salvage: StoreSalvage.Count) -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    if let key = StoreSalvage.userInfoKey { decoder.userInfo[key] = salvage }
    return decoder
  }
}

/// Decoding of store entries one by one, counting those that cannot be read.
public enum StoreSalvage {
  /// The count of entries dropped while decoding one document.
  public final class Count: Sendable {
    // Every access goes through the mutex.
    private let storage = Mutex(0)

    /// Creates a count at zero.
    public init() {}

    /// Entries dropped so far.
    public var value: Int { storage.withLock { $0 } }

    func increment() { storage.withLock { $0 += 1 } }
  }

  /// The decoder's user-info key under which ``StoreFile`` passes the count.
  public static let userInfoKey = CodingUserInfoKey(rawValue: "skillrouter.store.salvage")

  /// Decodes the array under `key` entry by entry, skipping (and counting) entries that fail.
  ///
  /// A missing key is an empty list; a value that is not an array throws.
  public static func decodeEntries<Element: Decodable, Key: CodingKey>(
    _ type: Element.Type, from container: KeyedDecodingContainer<Key>, forKey key: Key,
    decoder: any Decoder
  ) throws -> [Element] {
    guard container.contains(key) else { return [] }
    var entries = try container.nestedUnkeyedContainer(forKey: key)
    let count = userInfoKey.flatMap { decoder.userInfo[$0] as? Count }
    var result: [Element] = []
    while !entries.isAtEnd {
      if let element = try? entries.decode(Element.self) {
        result.append(element)
      } else {
        _ = try entries.decode(Skipped.self)
        count?.increment()
      }
    }
    return result
  }

  /// Any JSON value, decoded only to move past it.
  private struct Skipped: Decodable {
    init(from decoder: any Decoder) throws {}
  }
}
