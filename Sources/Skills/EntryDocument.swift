public import Foundation

/// An entry of a store that keeps a numbered list: a timer, a reminder, a memo.
public protocol StoreEntry: Codable, Sendable {
  /// The key the store file keeps its entries under, such as `timers`.
  static var storeKey: String { get }
  /// A number unique within the store.
  var id: Int { get }
}

/// A store file that is a numbered list of entries:
/// `{"version": 1, "next_id": 3, "<key>": [ … ]}`.
///
/// A counter that does not fit is renumbered from the entries, not a reason to lose them; entries
/// that cannot be decoded are salvaged around (``StoreSalvage``).
public struct EntryDocument<Entry: StoreEntry>: StoreDocument {
  /// The format version this build reads and writes.
  public static var formatVersion: Int { 1 }
  /// The format version of the file.
  public var version = 1
  /// The id the next entry gets, unless an entry already holds a higher one.
  public var nextID = 1
  /// The entries, in the order they were added.
  public var entries: [Entry] = []

  /// The empty store.
  public init() {}

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    static var version: Key { Key("version") }
    static var nextID: Key { Key("next_id") }
    static var entries: Key { Key(Entry.storeKey) }
  }

  /// Reads a document, keeping every entry that decodes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
    nextID = (try? container.decodeIfPresent(Int.self, forKey: .nextID)) ?? 0
    entries = try StoreSalvage.decodeEntries(
      Entry.self, from: container, forKey: .entries, decoder: decoder)
  }

  /// Writes the document under the same keys it is read from.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(version, forKey: .version)
    try container.encode(nextID, forKey: .nextID)
    try container.encode(entries, forKey: .entries)
  }

  /// Takes the next id and advances the counter; whether the stored counter had to be repaired.
  ///
  /// - Throws: ``SkillError/failed(_:)`` naming the file when even the highest id cannot be
  ///   counted past; `remedy` says what the user can do ("cancel that timer").
  public mutating func allocateID(in url: URL, kind: String, remedy: String) throws(SkillError)
    -> (id: Int, repairedCounter: Bool)
  {
    guard let allocation = StoreIdentifiers.allocate(counter: nextID, existing: entries.map(\.id))
    else {
      throw .failed(
        "\(kind) '\(url.path)' holds an id too large to count past; \(remedy) or move the file away"
      )
    }
    nextID = allocation.nextID
    return (allocation.id, allocation.repairedCounter)
  }
}
