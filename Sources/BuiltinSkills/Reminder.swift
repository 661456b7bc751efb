public import Foundation
public import Skills

/// A reminder: what it is about and when it fires.
public struct Reminder: Codable, Sendable, Equatable {
  /// A number unique within the store, counting up from 1.
  public var id: Int
  /// What to be reminded of, such as "带伞".
  public var title: String
  /// When it fires.
  public var fireDate: Date
  /// When it was made.
  public var createdAt: Date

  /// Creates a reminder.
  public init(id: Int, title: String, fireDate: Date, createdAt: Date) {
    self.id = id
    self.title = title
    self.fireDate = fireDate
    self.createdAt = createdAt
  }

  enum CodingKeys: String, CodingKey {
    case id, title
    case fireDate = "fire_date"
    case createdAt = "created_at"
  }

  /// Decodes a reminder, refusing ids below 1.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    fireDate = try container.decode(Date.self, forKey: .fireDate)
    createdAt = try container.decode(Date.self, forKey: .createdAt)
    guard id >= 1 else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "reminder id below 1"))
    }
  }
}

/// A reminder as skill results show it.
public struct ReminderItem: Encodable, Sendable, Equatable {
  /// Its id in the store.
  public var id: Int
  /// What it is about.
  public var title: String
  /// When it fires, ISO 8601 with the user's offset.
  public var fireDate: String

  /// Creates the item for `reminder`, with times in `zone`.
  public init(_ reminder: Reminder, zone: TimeZone) {
    id = reminder.id
    title = reminder.title
    fireDate = Timestamp.iso8601(reminder.fireDate, in: zone)
  }

  enum CodingKeys: String, CodingKey {
    case id, title
    case fireDate = "fire_date"
  }
}

extension Reminder {
  /// Whether the title answers to what the user said ("牙医" matches "去看牙医").
  func matches(_ words: String) -> Bool {
    let name = ReminderWords.subject(words).lowercased()
    let title = self.title.lowercased()
    return !name.isEmpty && (title.contains(name) || name.contains(title))
  }
}

/// The parts of a `text` slot that name what a reminder is about.
enum ReminderWords {
  /// Leading words that do not name a subject ("the", "my", "关于", "的").
  static let fillers = ["about ", "the ", "my ", "for ", "to ", "关于", "那个", "这个"]

  /// The subject words of `text`, without fillers and a trailing "reminder"/"提醒"/"的".
  static func subject(_ text: String) -> String {
    var words = text.trimmingCharacters(in: .whitespacesAndNewlines)
    var changed = true
    while changed {
      changed = false
      for filler in fillers where words.lowercased().hasPrefix(filler) {
        words = String(words.dropFirst(filler.count)).trimmingCharacters(in: .whitespaces)
        changed = true
      }
      for suffix in [" reminder", " reminders", "的提醒", "提醒", "的"]
      where words.lowercased().hasSuffix(suffix) && words.count > suffix.count {
        words = String(words.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
        changed = true
      }
    }
    return generic.contains(words.lowercased()) ? "" : words
  }

  /// Words that name reminders in general, not one of them.
  static let generic: Set<String> = [
    "alarm", "alarms", "reminder", "reminders", "all", "everything", "闹钟", "提醒", "所有", "全部",
    "所有的", "全部的",
  ]
}

extension Reminder: StoreEntry {
  /// The key of `reminders.json`'s entries.
  public static var storeKey: String { "reminders" }
}
