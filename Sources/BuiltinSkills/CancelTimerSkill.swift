import Foundation
public import Skills

/// Cancels timers (`timer.cancel`): the latest, a named one ("取消煮鸡蛋的计时") or all.
public struct CancelTimerSkill: Skill {
  /// The slots `timer.cancel` fills.
  public struct Input: Decodable, Sendable {
    /// The timer's name, or a word for "all"; absent means the latest timer.
    public var text: String?
    /// `all` when the user meant every timer ("取消所有计时器", "cancel all timers").
    public var scope: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The timers that were cancelled.
  public struct Output: Encodable, Sendable, Equatable {
    /// The cancelled timers, latest first.
    public var cancelled: [CancelledTimer]
    /// A sentence for people.
    public var message: String
  }

  /// One cancelled timer.
  public struct CancelledTimer: Encodable, Sendable, Equatable {
    /// Its id in the store.
    public var id: Int
    /// What it was for.
    public var label: String
  }

  /// Words that, as the whole `text` slot, mean every timer.
  static let allWords: Set<String> = [
    "所有", "全部", "全部的", "所有的", "都", "全都", "一切", "all", "all timers", "all the timers",
    "every timer", "everything",
  ]
  /// Leftovers of "the timer" phrasing that do not name a timer.
  static let emptyNames: Set<String> = ["的", "那个", "这个", "the", "my", "a", "timer", "the timer"]

  public var intentID: String { "timer.cancel" }
  public var displayName: String { "Cancel timer" }
  let store: TimerStore

  /// Creates the skill over a store.
  public init(store: TimerStore) {
    self.store = store
  }

  public func perform(_ input: Input) async throws -> Output {
    var selection = Self.selection(for: input.text)
    if input.scope?.lowercased() == "all" { selection = .all }
    let cancelled = try await store.cancel(selection)
    let items = cancelled.map { CancelledTimer(id: $0.id, label: $0.label) }
    let lang = input.lang ?? .en
    let message: String
    switch cancelled.count {
    case 0: message = lang.say("没有正在运行的计时器", "no timers are running")
    case 1:
      message = lang.say("已取消计时器：\(cancelled[0].label)", "cancelled timer '\(cancelled[0].label)'")
    default:
      let names = cancelled.map(\.label).joined(separator: lang.say("、", ", "))
      message = lang.say(
        "已取消\(cancelled.count)个计时器：\(names)", "cancelled \(cancelled.count) timers: \(names)")
    }
    return Output(cancelled: items, message: message)
  }

  /// Reads the `text` slot as latest, named or all.
  static func selection(for text: String?) -> TimerStore.Selection {
    guard var name = text?.trimmingCharacters(in: .whitespacesAndNewlines) else { return .latest }
    while name.hasSuffix("的") { name.removeLast() }
    let lowered = name.lowercased()
    if lowered.isEmpty || emptyNames.contains(lowered) { return .latest }
    if allWords.contains(lowered) { return .all }
    return .named(name)
  }
}
