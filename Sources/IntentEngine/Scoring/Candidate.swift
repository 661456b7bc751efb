/// How one intent fared on one utterance: the score and the evidence behind it.
///
/// Evidence and slots are kept as indexes into the analysis; only the winner's are turned into
/// words (``Scorer/explain(_:in:)``), so losing candidates cost no string building.
struct Candidate {
  var intent: Int
  var score: Double
  var evidence: [EvidenceRecord]
  var slots: [SlotFill]
  var missingSlots: [String]
  /// Free text a pattern captured for this intent (the note of a memo, the task of a reminder).
  var captures: [Range<Int>] = []
  /// The hits this intent was scored on, as indexes into the scorer's list of targeted hits.
  var hits: Range<Int> = 0..<0

  /// Whether a sentence pattern matched the utterance or its last clause.
  var hasPattern: Bool { evidence.contains { if case .pattern = $0 { true } else { false } } }
}

/// One piece of evidence, before it is put into words.
enum EvidenceRecord {
  case keyword(hit: KeywordHit, group: Int, weight: Double)
  case weakOnly(penalty: Double)
  case exclude(entry: Int32, inPayload: Bool, penalty: Double)
  case pattern(index: Int, bonus: Double)
  /// `slot` indexes the intent's declared slots: records hold no strings to retain.
  case entity(index: Int, slot: Int, bonus: Double)
  case missingSlot(slot: Int, isText: Bool, penalty: Double)
  case coverage(share: Double, score: Double)
  case insidePayload(of: Int, penalty: Double)
  case addressedToOther(range: Range<Int>, penalty: Double)
  /// The word the utterance breaks off on.
  case brokenOff(range: Range<Int>, penalty: Double)
  /// A word said twice running (`range` covers both), with nothing else to go on.
  case stutter(range: Range<Int>, penalty: Double)
}

/// How a slot was filled, before the value is rendered.
enum SlotFill {
  /// The slot (an index into the intent's declared slots) and the entity filling it.
  case entity(slot: Int, entity: Int)
  /// Free text: the normalised range of the payload, quoted in the user's words when rendered.
  case text(slot: Int, Range<Int>)
  /// A value read from marker words (`scope`, `list`), with the range of those words.
  case marker(slot: Int, SlotValue, Range<Int>)
}

/// A set of indexes that allocates nothing while they are below 64: the keyword groups and
/// excludes one candidate has seen.
struct SmallIndexSet {
  private var bits: UInt64 = 0
  private var overflow: Set<Int> = []

  var isEmpty: Bool { bits == 0 && overflow.isEmpty }

  func contains(_ index: Int) -> Bool {
    index < 64 ? bits & (1 << UInt64(index)) != 0 : overflow.contains(index)
  }

  /// Adds `index`; false when it was already there.
  mutating func insert(_ index: Int) -> Bool {
    guard index < 64 else { return overflow.insert(index).inserted }
    let mask: UInt64 = 1 << UInt64(index)
    defer { bits |= mask }
    return bits & mask == 0
  }
}
