public import Foundation
public import IntentEngine
public import Skills

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The learned phrases in one JSON file under the data directory, shared by every process.
///
/// Each change is a read-modify-write under an exclusive `flock` on a sibling lock file, written
/// atomically, so two commands learning at once lose nothing. A file that is not a phrase store
/// is set aside (never lost) and reported; the store then starts empty.
public struct LearnedPhraseStore: PhraseMemory {
  /// The store file, `learned.json` in the data directory.
  public let url: URL
  private let lockURL: URL
  private let wallClock: WallClock
  private let problems: ProblemLog?

  /// The file name under the data directory.
  public static let fileName = "learned.json"
  /// Format version written in the file.
  public static let formatVersion = 1
  /// Most phrases kept; past it the least used are dropped, so the file and its reads stay small.
  public static let maximumPhrases = 5_000
  /// Longest wait for another process's lock before a phrase is given up (and reported).
  public let lockTimeout: Duration

  /// Creates the store in `directory`; nothing is read or written until it is used.
  public init(
    directory: URL, wallClock: WallClock = .system, problems: ProblemLog? = nil,
    lockTimeout: Duration = .seconds(5)
  ) {
    url = directory.appendingPathComponent(Self.fileName)
    lockURL = directory.appendingPathComponent(".\(Self.fileName).lock")
    self.wallClock = wallClock
    self.problems = problems
    self.lockTimeout = lockTimeout
  }

  /// Every learned phrase, most used first.
  public func phrases() async -> [LearnedPhrase] {
    guard FileManager.default.fileExists(atPath: url.path) else { return [] }
    return (try? await update { $0 }) ?? []
  }

  public func recall(_ text: String) async -> LearnedPhrase? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    // A lock-free look first: most utterances were never learned, and writes are atomic.
    guard let data = try? Data(contentsOf: url), let value = try? JSONValue(parsing: data),
      Self.entries(in: value)?.contains(where: { $0.text == text }) == true
    else { return nil }
    return try? await update { phrases in
      guard let index = phrases.firstIndex(where: { $0.text == text }) else { return nil }
      phrases[index].count += 1
      return phrases[index]
    }
  }

  public func remember(_ text: String, intent: String, slots: JSONValue) async {
    do {
      try await update { phrases in
        if let index = phrases.firstIndex(where: { $0.text == text }) {
          phrases[index].intent = intent
          phrases[index].slots = slots
          phrases[index].count += 1
        } else {
          phrases.append(LearnedPhrase(text: text, intent: intent, slots: slots))
        }
      }
    } catch {
      await problems?.record("learned phrases: \(error)")
    }
  }

  /// Removes the phrase learned for `text`, or every phrase when `text` is nil; returns how many.
  ///
  /// - Throws: ``SkillError/failed(_:)`` when the store cannot be read or written.
  public func forget(_ text: String?) async throws(SkillError) -> Int {
    guard FileManager.default.fileExists(atPath: url.path) else { return 0 }
    return try await update { phrases in
      let before = phrases.count
      phrases.removeAll { text == nil || $0.text == text }
      return before - phrases.count
    }
  }

  /// Reads the phrases, lets `change` edit them, and writes them back when they changed, all
  /// under the lock.
  private func update<Value>(
    _ change: (inout [LearnedPhrase]) -> Value
  ) async throws(SkillError) -> Value {
    let lock: Int32
    do {
      lock = try await FileLock.acquire(
        lockURL, timeout: lockTimeout, holder: "learned phrases file '\(url.path)'")
    } catch let error as SkillError {
      throw error
    } catch {
      throw .failed("gave up waiting for the lock on '\(url.path)'; the task was cancelled")
    }
    defer { _ = close(lock) }
    var phrases: [LearnedPhrase] = []
    var original: [LearnedPhrase] = []
    if let data = FileManager.default.contents(atPath: url.path) {
      if let value = try? JSONValue(parsing: data), let entries = Self.entries(in: value) {
        phrases = entries
        original = entries
      } else {
        let aside = try AtomicFile.setAside(url, at: wallClock.now)
        await problems?.record(
          "learned phrases file '\(url.path)' is not readable; moved it to '\(aside.path)'")
      }
    }
    let result = change(&phrases)
    phrases.sort { ($0.count, $1.text) > ($1.count, $0.text) }
    if phrases.count > Self.maximumPhrases {
      phrases.removeLast(phrases.count - Self.maximumPhrases)
    }
    if phrases != original {
      try AtomicFile.write(Data((Self.document(phrases).prettyJSONText + "\n").utf8), to: url)
    }
    return result
  }

  /// The phrases in a store document, or nil when it is not one.
  static func entries(in value: JSONValue) -> [LearnedPhrase]? {
    guard case .array(let items) = value["phrases"] ?? .null else { return nil }
    return items.compactMap { item in
      guard let text = item["text"]?.stringValue, let intent = item["intent"]?.stringValue else {
        return nil
      }
      var count = 1
      if case .number(let number) = item["count"] ?? .null, number >= 1, number < 1e9 {
        count = Int(number)
      }
      return LearnedPhrase(
        text: text, intent: intent, slots: item["slots"] ?? .object([]), count: count)
    }
  }

  static func document(_ phrases: [LearnedPhrase]) -> JSONValue {
    .object([
      ("version", .number(Double(formatVersion))),
      (
        "phrases",
        .array(
          phrases.map {
            .object([
              ("text", .string($0.text)), ("intent", .string($0.intent)), ("slots", $0.slots),
              ("count", .number(Double($0.count))),
            ])
          })
      ),
    ])
  }
}
