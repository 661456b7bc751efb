/// Allocation of entry ids in stores: checked arithmetic, so a hostile counter never traps.
public enum StoreIdentifiers {
  /// A new id and the counter to store after it.
  public struct Allocation: Sendable, Equatable {
    /// The id to give the new entry.
    public var id: Int
    /// The counter to store: one past `id`.
    public var nextID: Int
    /// Whether the stored counter was out of range and ids were renumbered from the entries.
    public var repairedCounter: Bool

    /// Creates an allocation.
    public init(id: Int, nextID: Int, repairedCounter: Bool) {
      self.id = id
      self.nextID = nextID
      self.repairedCounter = repairedCounter
    }
  }

  /// Allocates the id after both the stored counter and every existing id.
  ///
  /// A counter that cannot be incremented (such as `Int.max`) is a corrupt value: it is ignored
  /// and the id follows the highest existing one. Returns nil when even that overflows.
  public static func allocate(counter: Int, existing: [Int]) -> Allocation? {
    let highest = max(0, existing.max() ?? 0)
    let (afterHighest, highestOverflows) = highest.addingReportingOverflow(1)
    guard !highestOverflows else { return nil }
    let id = max(afterHighest, counter, 1)
    let (next, overflows) = id.addingReportingOverflow(1)
    if !overflows { return Allocation(id: id, nextID: next, repairedCounter: false) }
    let (repairedNext, repairOverflows) = afterHighest.addingReportingOverflow(1)
    guard !repairOverflows else { return nil }
    return Allocation(id: afterHighest, nextID: repairedNext, repairedCounter: true)
  }
}
