extension Scorer {
  /// The slots an intent fills from the utterance's entities and marker words, before its free
  /// text is read.
  struct SlotFilling {
    var slots: [SlotFill]
    /// Names of required slots left empty, in declaration order.
    var missing: [String]
    /// The intent's text slot, filled from the payload once coverage is known.
    var textSlot: Int?

    /// Whether an entity fills one of the slots: a value said for the intent, evidence of its own.
    var hasEntity: Bool { slots.contains { if case .entity = $0 { true } else { false } } }
  }

  /// Fills the intent's non-text slots, adding ``filledSlotBonus`` per entity and taking the
  /// missing-slot penalties from `score`, with a record of each in `evidence`.
  ///
  /// The pattern's entity for a slot comes first, then the longest one of the slot's type; a
  /// `list` or `scope` slot takes its marker words. Each range that fills a slot is added to
  /// `evidenceRanges`: it is explained.
  func fillSlots(
    _ intent: CompiledIntent, _ analysis: Analysis, patternMatch: PatternMatcher.Match?,
    score: inout Double, evidence: inout [EvidenceRecord],
    explaining evidenceRanges: inout [Range<Int>]
  ) -> SlotFilling {
    var filling = SlotFilling(slots: [], missing: [], textSlot: nil)
    filling.slots.reserveCapacity(intent.spec.slots.count)
    for (slotIndex, spec) in intent.spec.slots.enumerated() {
      if spec.type == .text {
        filling.textSlot = slotIndex
        continue
      }
      if spec.type == .list || spec.type == .scope {
        let marker: (Range<Int>, SlotValue)? =
          spec.type == .list
          ? analysis.listName.map { ($0.range, .list($0.name)) }
          : analysis.scopeAll.map { ($0, .scope("all")) }
        if let (range, value) = marker {
          evidenceRanges.append(range)
          filling.slots.append(.marker(slot: slotIndex, value, range))
        } else if spec.isRequired {
          filling.missing.append(spec.name)
          evidence.append(
            .missingSlot(slot: slotIndex, isText: false, penalty: Self.missingSlotPenalty))
        }
        continue
      }
      let candidateIndex =
        patternMatch?.entity(forSlot: spec.name)
        ?? bestEntity(for: spec.type, absolute: spec.isAbsolute, analysis)
      let entityIndex =
        candidateIndex
        .flatMap { index in
          !spec.isShort || Self.isShort(analysis.entities[index]) ? index : nil
        }
        .flatMap { index in
          Self.fitsGrain(analysis.entities[index], spec.type, in: intent.spec) ? index : nil
        }
      guard let entityIndex else {
        if spec.isRequired {
          filling.missing.append(spec.name)
          // Misfilled: its kind of value was said but cannot fill it.
          let misfit =
            candidateIndex != nil
            || (spec.isAbsolute
              && analysis.entities.contains { $0.type == spec.type || $0.type == .duration })
          let penalty =
            misfit || patternMatch == nil ? Self.unsupportedSlotPenalty : Self.missingSlotPenalty
          score -= penalty
          evidence.append(.missingSlot(slot: slotIndex, isText: false, penalty: penalty))
        }
        continue
      }
      evidenceRanges.append(analysis.entities[entityIndex].range)
      score += Self.filledSlotBonus
      filling.slots.append(.entity(slot: slotIndex, entity: entityIndex))
      evidence.append(.entity(index: entityIndex, slot: slotIndex, bonus: Self.filledSlotBonus))
    }
    return filling
  }

  /// Whether an entity is a duration under a day, the length a countdown timer runs.
  static func isShort(_ entity: Entity) -> Bool {
    guard case .duration(let seconds) = entity.value else { return true }
    return seconds < 86_400
  }

  /// Whether entity `index` is a datetime given as an offset from now.
  ///
  /// Such a datetime contains a duration ("十分钟后", "in 10 minutes"). There are few entities,
  /// so this is asked when a slot needs it, not stored.
  static func isRelative(_ index: Int, in entities: [Entity]) -> Bool {
    guard entities[index].type == .datetime else { return false }
    let range = entities[index].range
    return entities.contains { $0.type == .duration && range.contains($0.range.lowerBound) }
  }

  /// Whether a time fits a slot when the intent has both a `datetime` and a `date` slot: a day
  /// without a clock time ("tomorrow's reminders") is a date, a time of day is a datetime.
  static func fitsGrain(_ entity: Entity, _ type: EntityType, in spec: IntentSpec) -> Bool {
    guard type == .datetime || type == .date, case .datetime(let value) = entity.value else {
      return true
    }
    let isDay = value.grain == .day || value.grain == .week || value.grain == .month
    switch type {
    case .datetime: return !isDay || !spec.slots.contains { $0.type == .date }
    default: return isDay || !spec.slots.contains { $0.type == .datetime }
    }
  }

  /// Whether entity `index` can fill a slot of `type`: a datetime fills a date slot too, and an
  /// absolute slot takes no time given as an offset from now.
  static func canFill(_ type: EntityType, absolute: Bool, with index: Int, in entities: [Entity])
    -> Bool
  {
    let found = entities[index].type
    return (found == type || (type == .date && found == .datetime))
      && !(absolute && isRelative(index, in: entities))
  }

  /// The entity to fill a slot of `type`: the longest, then the earliest.
  private func bestEntity(for type: EntityType, absolute: Bool, _ analysis: Analysis) -> Int? {
    var best: Int?
    for (index, entity) in analysis.entities.enumerated()
    where Self.canFill(type, absolute: absolute, with: index, in: analysis.entities) {
      guard let current = best else {
        best = index
        continue
      }
      if entity.range.count > analysis.entities[current].range.count { best = index }
    }
    return best
  }
}
