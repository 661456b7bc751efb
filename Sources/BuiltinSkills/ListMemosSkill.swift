public import Foundation
public import Skills

/// Reads notes or a list, or answers whether an item is on it (`memo.list`).
///
/// "are eggs on my shopping list" → yes, added Monday; "购物清单上有什么" → the open items.
public struct ListMemosSkill: Skill {
  /// The slots `memo.list` fills.
  public struct Input: Decodable, Sendable {
    /// The list asked about; absent means every open memo.
    public var list: String?
    /// The item asked about; absent means read the whole list.
    public var text: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// What was found.
  public struct Output: Encodable, Sendable, Equatable {
    /// The open memos read, or those matching the item asked about.
    public var memos: [MemoItem]
    /// When an item was asked about: whether it is on the list.
    public var found: Bool?
    /// A sentence in the user's language.
    public var message: String
  }

  public var intentID: String { "memo.list" }
  public var displayName: String { "List memos" }
  let store: MemoStore
  let wallClock: WallClock
  let timeZone: TimeZone

  /// Creates the skill over a store; days are shown in `timeZone`.
  public init(store: MemoStore, wallClock: WallClock = .system, timeZone: TimeZone = .current) {
    self.store = store
    self.wallClock = wallClock
    self.timeZone = timeZone
  }

  public func perform(_ input: Input) async throws -> Output {
    let lang = input.lang ?? .en
    let now = wallClock.now
    let list = input.list.map(MemoLists.normalizedName).flatMap { $0.isEmpty ? nil : $0 }
    var memos = try await store.memos()
    if let list { memos = memos.filter { $0.list == list } }
    let place = list.map { MemoLists.displayName($0, lang) }
    if let words = input.text, !MemoLists.item(words).isEmpty {
      let item = MemoLists.item(words)
      let matches = memos.filter { $0.matches(item) }
      let where_ = place ?? lang.say("备忘", "your notes")
      guard let first = matches.first else {
        return Output(
          memos: [], found: false,
          message: lang.say("\(where_)上没有\(item)", "no, '\(item)' is not on your \(where_)"))
      }
      let added = Wording.weekdayOrDay(first.createdAt, now: now, zone: timeZone, lang)
      return Output(
        memos: matches.map { MemoItem($0, zone: timeZone) }, found: true,
        message: lang.say(
          "有，\(first.text)在\(where_)上（\(added)添加）",
          "yes, '\(first.text)' is on your \(where_) (added \(added))"))
    }
    let items = memos.map { MemoItem($0, zone: timeZone) }
    let lines = memos.map(\.text).joined(separator: lang.say("、", ", "))
    let name = place ?? lang.say("备忘", "notes")
    guard !memos.isEmpty else {
      return Output(
        memos: [], found: nil,
        message: lang.say("\(name)是空的", place.map { "your \($0) is empty" } ?? "no notes"))
    }
    return Output(
      memos: items, found: nil,
      message: lang.say(
        "\(name)有\(memos.count)项：\(lines)",
        "\(memos.count) item\(memos.count == 1 ? "" : "s") on your \(name): \(lines)"))
  }
}
