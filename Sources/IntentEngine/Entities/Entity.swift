public import Foundation

/// The kinds of value a slot can hold and an extractor can find.
public enum EntityType: String, Sendable, CaseIterable, Codable {
  case number, duration, datetime, date, location, text, metric, period
  /// A list's name, normalised so one list has one name in both languages (`shopping`, `todo`).
  case list
  /// How many items a command means: `all` when it means every one.
  case scope
}

extension EntityType {
  /// The type's place in declaration order, which breaks ties when entities are sorted.
  var rank: Int {
    switch self {
    case .number: 0
    case .duration: 1
    case .datetime: 2
    case .date: 3
    case .location: 4
    case .text: 5
    case .metric: 6
    case .period: 7
    case .list: 8
    case .scope: 9
    }
  }
}

/// A value found in an utterance, with the normalised scalars it was read from.
public struct Entity: Sendable, Equatable {
  /// What kind of value this is.
  public var type: EntityType
  /// The normalised scalar range the value was read from.
  public var range: Range<Int>
  /// The value.
  public var value: SlotValue
  /// A remark for the explanation, such as "range 2–3 resolved to 3".
  public var note: String?

  /// Creates an entity.
  public init(type: EntityType, range: Range<Int>, value: SlotValue, note: String? = nil) {
    self.type = type
    self.range = range
    self.value = value
    self.note = note
  }
}

/// How finely a datetime was specified.
public enum TimeGrain: String, Sendable, Codable {
  case second, minute, hour, day, week, month
}

/// A point or window in time, resolved against the parse context.
public struct DateTimeValue: Sendable, Equatable {
  /// The instant (for a window, its start).
  public var date: Date
  /// The zone the value was resolved in; ISO output carries its offset.
  public var timeZone: TimeZone
  /// How finely the time was given: "明天" is a day, "明天八点" a minute.
  public var grain: TimeGrain
  /// Whether the phrase names a span ("明天", "this week") rather than an instant.
  public var isWindow: Bool

  /// Creates a value.
  public init(date: Date, timeZone: TimeZone, grain: TimeGrain, isWindow: Bool) {
    self.date = date
    self.timeZone = timeZone
    self.grain = grain
    self.isWindow = isWindow
  }

  /// The instant in ISO 8601 with the zone's offset, such as `2026-12-01T08:00:00+08:00`.
  public var iso8601: String {
    let offset = timeZone.secondsFromGMT(for: date)
    let local = Self.civil(
      secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset))
    let sign = offset < 0 ? "-" : "+"
    let minutes = abs(offset) / 60
    return
      "\(local.date)T\(Self.pad(local.hour)):\(Self.pad(local.minute)):\(Self.pad(local.second))"
      + "\(sign)\(Self.pad(minutes / 60)):\(Self.pad(minutes % 60))"
  }

  /// The calendar day in the value's zone, such as `2026-12-01`.
  public var isoDate: String {
    let offset = timeZone.secondsFromGMT(for: date)
    return Self.civil(
      secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset)
    )
    .date
  }

  /// Splits local seconds since 1970 into an ISO day and a clock time, with the day-number
  /// arithmetic of `DateTimeResolver`: no formatter and no calendar on the hot path.
  static func civil(secondsSinceEpoch: Int64) -> (date: String, hour: Int, minute: Int, second: Int)
  {
    var days = secondsSinceEpoch / 86_400
    var rest = secondsSinceEpoch % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let (year, month, day) = DateTimeResolver.civil(fromDayNumber: Int(days))
    let yearText = year >= 0 && year < 10_000 ? pad(Int(year), width: 4) : String(year)
    let date = "\(yearText)-\(pad(Int(month)))-\(pad(Int(day)))"
    return (date, Int(rest / 3_600), Int(rest % 3_600 / 60), Int(rest % 60))
  }

  private static func pad(_ value: Int, width: Int = 2) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
}

/// A place named in an utterance, or the user's own location.
public struct LocationValue: Sendable, Equatable {
  /// The canonical name, such as "北京" or "Paris"; `here` for the current location.
  public var name: String
  /// The English name when the gazetteer has one.
  public var englishName: String?
  /// The country or province the place belongs to, when known.
  public var region: String?
  /// Whether the phrase meant "where I am" ("我这儿", "here").
  public var isCurrentLocation: Bool

  /// Creates a value.
  public init(
    name: String, englishName: String? = nil, region: String? = nil,
    isCurrentLocation: Bool = false
  ) {
    self.name = name
    self.englishName = englishName
    self.region = region
    self.isCurrentLocation = isCurrentLocation
  }
}

/// The normalised value of a slot or entity.
public enum SlotValue: Sendable, Equatable {
  case number(Double)
  /// A length of time in seconds.
  case duration(seconds: Double)
  case datetime(DateTimeValue)
  case location(LocationValue)
  case text(String)
  /// One of `steps`, `heart_rate`, `sleep`.
  case metric(String)
  /// One of `today`, `yesterday`, `this_week`, `last_week`, `this_month`, `last_month`.
  case period(String)
  /// A list's normalised name: `shopping`, `todo`, or the user's own words.
  case list(String)
  /// `all` when the user means every item.
  case scope(String)

  /// The value as the CLI contract renders it for a slot of type `type`.
  ///
  /// A datetime fills a `date` slot as its ISO day; every other pairing renders the value itself.
  public func json(as type: EntityType) -> JSONValue {
    switch self {
    case .number(let n): .number(n)
    case .duration(let seconds): .number(seconds)
    case .datetime(let value): .string(type == .date ? value.isoDate : value.iso8601)
    case .location(let place): .string(place.name)
    case .text(let text): .string(text)
    case .metric(let metric): .string(metric)
    case .period(let period): .string(period)
    case .list(let name): .string(name)
    case .scope(let scope): .string(scope)
    }
  }
}
