public import Foundation
public import Skills

/// Keeps a note or adds a list item (`memo.create`): "记一下车停在B2层", "add milk to my shopping list".
public struct CreateMemoSkill: Skill {
  /// The slots `memo.create` fills.
  public struct Input: Decodable, Sendable {
    /// The note or item.
    public var text: String?
    /// The list's normalised name, when the user said one.
    public var list: String?
    /// The user's language.
    public var lang: UserLanguage?
  }

  /// The memo kept, or the question to ask when there was nothing to keep.
  public struct Output: Encodable, Sendable, Equatable {
    /// The memo, when one was kept.
    public var memo: MemoItem?
    /// Slots still needed (`text`), when nothing was kept.
    public var missingSlots: [String]?
    /// The question for the user, when nothing was kept.
    public var prompt: String?
    /// A sentence in the user's language.
    public var message: String

    enum CodingKeys: String, CodingKey {
      case memo, prompt, message
      case missingSlots = "missing_slots"
    }
  }

  public var intentID: String { "memo.create" }
  public var displayName: String { "Create memo" }
  let store: MemoStore
  let timeZone: TimeZone

  /// Creates the skill over a store; times are shown in `timeZone`.
  public init(store: MemoStore, timeZone: TimeZone = .current) {
    self.store = store
    self.timeZone = timeZone
  }

  public func perform(_ input: Input) async throws -> Output {
    let lang = input.lang ?? .en
    let text = input.text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    guard !text.isEmpty else {
      let prompt = lang.say("要记什么？", "What should I note down?")
      return Output(memo: nil, missingSlots: ["text"], prompt: prompt, message: prompt)
    }
    let list = input.list.map(MemoLists.normalizedName).flatMap { $0.isEmpty ? nil : $0 }
    let memo = try await store.add(text: String(text.prefix(1000)), list: list)
    let message: String
    if let list {
      let name = MemoLists.displayName(list, lang)
      message = lang.say("已加到\(name)：\(memo.text)", "added '\(memo.text)' to your \(name)")
    } else {
      message = lang.say("已记下：\(memo.text)", "noted: \(memo.text)")
    }
    return Output(
      memo: MemoItem(memo, zone: timeZone), missingSlots: nil, prompt: nil, message: message)
  }
}
