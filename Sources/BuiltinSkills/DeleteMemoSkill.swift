public import Foundation
public import Skills

/// Takes an item off a list, checks it off, or deletes a note (`memo.delete`).
///
/// The item is kept as done, so it no longer shows in `intent memos` but does with `--all`.
public struct DeleteMemoSkill: Skill {
  /// The slots `memo.delete` fills.
  public struct Input: Decodable, Sendable {
    /// The list, when the user said one.
    public var list: String?
    /// The item or note.
    public var text: String?
    /// `all` when the user meant every item (of the list, when one is given).
    public var scope: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The memos checked off.
  public struct Output: Encodable, Sendable, Equatable {
    /// The memos taken off, oldest first.
    public var removed: [MemoItem]
    /// A sentence in the user's language.
    public var message: String
  }

  public var intentID: String { "memo.delete" }
  public var displayName: String { "Delete memo" }
  let store: MemoStore
  let timeZone: TimeZone

  /// Creates the skill over a store; times are shown in `timeZone`.
  public init(store: MemoStore, timeZone: TimeZone = .current) {
    self.store = store
    self.timeZone = timeZone
  }

  public func perform(_ input: Input) async throws -> Output {
    let lang = input.lang ?? .en
    let list = input.list.map(MemoLists.normalizedName).flatMap { $0.isEmpty ? nil : $0 }
    let item = input.text.map(MemoLists.item) ?? ""
    let isAll = input.scope?.lowercased() == "all"
    guard !item.isEmpty || isAll else {
      return Output(removed: [], message: lang.say("要删掉哪一项？", "Which item should I take off?"))
    }
    let removed = try await store.checkOff { memo in
      (list == nil || memo.list == list) && (item.isEmpty || memo.matches(item))
    }
    let place = list.map { MemoLists.displayName($0, lang) }
    guard !removed.isEmpty else {
      let zh = place ?? "备忘"
      let en = place.map { "your \($0)" } ?? "your notes"
      return Output(
        removed: [],
        message: item.isEmpty
          ? lang.say("\(zh)是空的", "\(en) is empty")
          : lang.say("\(zh)上没有\(item)", "'\(item)' is not on \(en)"))
    }
    let names = removed.map(\.text).joined(separator: lang.say("、", ", "))
    let from = place.map { lang.say("从\($0)", " from your \($0)") } ?? ""
    return Output(
      removed: removed.map { MemoItem($0, zone: timeZone) },
      message: lang.say("已\(from)删掉：\(names)", "took off\(from): \(names)"))
  }
}
