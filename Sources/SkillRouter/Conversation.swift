public import Foundation
public import Skills

/// What a conversation remembers between utterances: the question still waiting for its answer.
///
/// It is a ``StoreDocument``, so `intent run --session FILE` keeps it in a ``StoreFile``: written
/// atomically under a lock, a corrupt file set aside and reported.
public struct Conversation: StoreDocument, Equatable {
  public static let formatVersion = 1
  public var version = Self.formatVersion
  /// The question asked by the last command that missed a detail, or nil.
  public var pending: PendingQuestion?

  /// Creates a conversation with nothing pending.
  public init() {}

  /// Creates a conversation waiting for `pending`.
  public init(pending: PendingQuestion?) {
    self.pending = pending
  }

  /// The pending question when it can still be answered at `now`, else nil.
  public func activeQuestion(at now: Date) -> PendingQuestion? {
    guard let pending, !pending.isExpired(at: now) else { return nil }
    return pending
  }
}
