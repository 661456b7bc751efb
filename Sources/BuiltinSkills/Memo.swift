public import Foundation
public import Skills

/// A note or a list item, with the list it is on and when it was added.
public struct Memo: Codable, Sendable, Equatable {
  /// A number unique within the store, counting up from 1.
  public var id: Int
  /// The note or item, such as "车停在B2层" or "eggs".
  public var text: String
  /// The list's normalised name (`shopping`, `todo`, or the user's words); nil for a plain note.
  public var list: String?
  /// When it was added.
  public var createdAt: Date
  /// When it was checked off or deleted; nil while it is open.
  public var doneAt: Date?

  /// Creates an open memo.
  public init(id: Int, text: String, list: String?, createdAt: Date, doneAt: Date? = nil) {
    self.id = id
    self.text = text
    self.list = list
    self.createdAt = createdAt
    self.doneAt = doneAt
  }

  enum CodingKeys: String, CodingKey {
    case id, text, list
    case createdAt = "created_at"
    case doneAt = "done_at"
  }

  /// Decodes a memo, refusing ids below 1.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    text = try container.decode(String.self, forKey: .text)
    list = try container.decodeIfPresent(String.self, forKey: .list)
    createdAt = try container.decode(Date.self, forKey: .createdAt)
    doneAt = try container.decodeIfPresent(Date.self, forKey: .doneAt)
    guard id >= 1 else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "memo id below 1"))
    }
  }

  /// Whether it is still open (not checked off).
  public var isOpen: Bool { doneAt == nil }

  /// Whether the item answers to what the user said ("eggs" matches "a dozen eggs").
  func matches(_ words: String) -> Bool {
    let asked = MemoLists.item(words).lowercased()
    let own = text.lowercased()
    return !asked.isEmpty && (own == asked || own.contains(asked) || asked.contains(own))
  }
}

/// A memo as skill results show it.
public struct MemoItem: Encodable, Sendable, Equatable {
  /// Its id in the store.
  public var id: Int
  /// The note or item.
  public var text: String
  /// The list it is on, if any.
  public var list: String?
  /// When it was added, ISO 8601 with the user's offset.
  public var createdAt: String
  /// Whether it was checked off.
  public var done: Bool

  /// Creates the item for `memo`, with times in `zone`.
  public init(_ memo: Memo, zone: TimeZone) {
    id = memo.id
    text = memo.text
    list = memo.list
    createdAt = Timestamp.iso8601(memo.createdAt, in: zone)
    done = !memo.isOpen
  }

  enum CodingKeys: String, CodingKey {
    case id, text, list, done
    case createdAt = "created_at"
  }
}

/// List names and item words as people say them.
public enum MemoLists {
  /// Names of the two lists everyone keeps, as `Grammars/*/lists.grammar` normalises them.
  static let aliases: [String: String] = [
    "购物清单": "shopping", "购物单": "shopping", "购物列表": "shopping", "采购清单": "shopping",
    "买菜清单": "shopping", "shopping list": "shopping", "shopping": "shopping",
    "grocery list": "shopping", "groceries": "shopping", "grocery": "shopping",
    "待办": "todo", "待办事项": "todo", "待办清单": "todo", "todo": "todo", "to do": "todo",
    "to-do": "todo", "todo list": "todo", "to do list": "todo", "to-do list": "todo",
    "task list": "todo", "tasks": "todo",
  ]

  /// The normalised name of a list the user typed (`--list 购物清单` → `shopping`).
  public static func normalizedName(_ name: String) -> String {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    return aliases[trimmed] ?? trimmed
  }

  /// The list's name for people: 购物清单 / shopping list, 待办 / to-do list, else as stored.
  public static func displayName(_ list: String, _ lang: UserLanguage) -> String {
    switch list {
    case "shopping": lang.say("购物清单", "shopping list")
    case "todo": lang.say("待办清单", "to-do list")
    default: list
    }
  }

  /// The item words of a `text` slot, without articles ("the eggs" → "eggs").
  static func item(_ text: String) -> String {
    var words = text.trimmingCharacters(in: .whitespacesAndNewlines)
    for filler in ["the ", "some ", "any ", "my ", "a ", "an "]
    where words.lowercased().hasPrefix(filler) {
      words = String(words.dropFirst(filler.count))
    }
    return words.trimmingCharacters(in: .whitespaces)
  }
}

extension Memo: StoreEntry {
  /// The key of `memos.json`'s entries.
  public static var storeKey: String { "memos" }
}
