/// Finds the built-in entities of an utterance: numbers, durations, datetimes, places, health
/// metrics and periods.
///
/// Pure and synchronous: the clock and time zone come from the `ParseContext`. Results are sorted
/// by range start and never overlap within one type; across types they may (三分钟后 is both a
/// `duration` 三分钟 and a `datetime`). A `number` entity is a number not used by a duration or
/// datetime; an absurd duration (beyond a year) is not read as one, and its number carries a
/// note saying why.
public struct EntityExtractor: Sendable {
  /// The places recognised as `location` entities.
  public let gazetteer: Gazetteer

  /// The longest duration read as one, in seconds: a year and a day.
  ///
  /// "In a year" still counts; longer ones ("set a timer for 500 years") are reported as numbers.
  static let maxDurationSeconds = 366 * 86_400.0

  /// Creates an extractor that resolves places with `gazetteer`.
  public init(gazetteer: Gazetteer) {
    self.gazetteer = gazetteer
  }

  /// All entities found, sorted by range start, non-overlapping per type.
  ///
  /// - Complexity: O(n · k) for n normalised scalars and the longest lexicon or gazetteer word k.
  public func entities(in text: NormalizedText, context: ParseContext) -> [Entity] {
    var entities: [Entity] = []
    let tokens = EntityTokenizer.tokens(in: text)
    var consumed = [Bool](filledWith: false, count: text.numbers.count)
    var numberNotes: [Int: String] = [:]
    if !tokens.isEmpty {
      timeEntities(
        tokens: tokens, text: text, context: context, into: &entities, consumed: &consumed,
        numberNotes: &numberNotes)
      wordEntities(tokens: tokens, text: text, into: &entities)
    }
    for (index, number) in text.numbers.enumerated() where !consumed[index] && number.value.isFinite
    {
      var note = numberNotes[index]
      if let upper = number.upperBound {
        note =
          note
          ?? "range \(NumeralReader.render(number.value))–\(NumeralReader.render(upper)) resolved to upper bound \(NumeralReader.render(upper))"
      }
      entities.append(
        Entity(type: .number, range: number.range, value: .number(number.resolvedValue), note: note)
      )
    }
    locationEntities(in: text, into: &entities)
    // Ties (今晚 is a datetime and a period) break by type, so the order never varies.
    entities.sort {
      ($0.range.lowerBound, $0.range.upperBound, $0.type.rank)
        < ($1.range.lowerBound, $1.range.upperBound, $1.type.rank)
    }
    return entities
  }

  // MARK: Durations and datetimes

  private func timeEntities(
    tokens: [EntityToken], text: NormalizedText, context: ParseContext,
    into entities: inout [Entity], consumed: inout [Bool], numberNotes: inout [Int: String]
  ) {
    let parser = TimeExpressionParser(tokens: tokens, numbers: text.numbers, scalars: text.scalars)
    var resolver: DateTimeResolver?
    func resolverForCall() -> DateTimeResolver {
      if let resolver { return resolver }
      let made = DateTimeResolver(context: context)
      resolver = made
      return made
    }
    // The user's words for notes.
    func words(_ normalized: Range<Int>) -> String { text.originalText(of: normalized) }
    func range(_ from: Int, _ to: Int) -> Range<Int> {
      tokens[from].range.lowerBound..<tokens[to - 1].range.upperBound
    }
    func consume(_ from: Int, _ to: Int) {
      let scalars = range(from, to)
      let numbers = text.numbers
      // Numbers are sorted by position: binary-search the first one inside the range.
      var low = 0
      var high = numbers.count
      while low < high {
        let mid = (low + high) / 2
        if numbers[mid].range.lowerBound < scalars.lowerBound { low = mid + 1 } else { high = mid }
      }
      while low < numbers.count, numbers[low].range.upperBound <= scalars.upperBound {
        consumed[low] = true
        low += 1
      }
    }
    // Frames read as datetimes, with the index of their entity.
    var frames: [(frame: TimeExpressionParser.Frame, entity: Int)] = []
    var hasRelative = false
    var t = 0
    while t < tokens.count {
      let prefixed = parser.word(t) == .inPrefix
      if let duration = parser.duration(at: prefixed ? t + 1 : t) {
        let start = prefixed ? t + 1 : t
        let durationRange = range(start, duration.end)
        guard duration.seconds.isFinite, duration.seconds <= Self.maxDurationSeconds else {
          if case .number(let index) = tokens[start].kind {
            numberNotes[index] =
              "'\(words(durationRange))' is longer than a year; not read as a duration"
          }
          t = duration.end
          continue
        }
        consume(start, duration.end)
        let note = duration.notes.isEmpty ? nil : duration.notes.joined(separator: "; ")
        entities.append(
          Entity(
            type: .duration, range: durationRange, value: .duration(seconds: duration.seconds),
            note: note))
        let isAfter = parser.word(duration.end) == .after
        if prefixed || isAfter {
          let end = isAfter ? duration.end + 1 : duration.end
          let resolution = resolverForCall().relative(seconds: duration.seconds)
          hasRelative = true
          entities.append(
            Entity(
              type: .datetime, range: range(t, end), value: .datetime(resolution.value),
              note: note))
          t = end
        } else {
          t = duration.end
        }
        continue
      }
      if let frame = parser.frame(at: t) {
        consume(frame.start, frame.end)
        let frameRange = range(frame.start, frame.end)
        if let resolution = resolverForCall().resolve(frame, said: words(frameRange)) {
          frames.append((frame, entities.count))
          entities.append(
            Entity(
              type: .datetime, range: frameRange, value: .datetime(resolution.value),
              note: resolution.note))
        }
        t = frame.end
        continue
      }
      t += 1
    }
    guard !hasRelative, frames.count == 2 else { return }
    joinDayAndClock(frames[0], frames[1], resolver: resolverForCall(), words: words, &entities)
  }

  /// A day and a clock time said apart are one time ("明天 remind me at 3pm").
  ///
  /// Both entities take the joined value, whichever of them fills the slot. Only when the
  /// utterance has exactly these two times, one with a day and no clock, the other with a clock
  /// and no day.
  private func joinDayAndClock(
    _ first: (frame: TimeExpressionParser.Frame, entity: Int),
    _ second: (frame: TimeExpressionParser.Frame, entity: Int),
    resolver: DateTimeResolver, words: (Range<Int>) -> String, _ entities: inout [Entity]
  ) {
    let (day, clock) = first.frame.clock == nil ? (first, second) : (second, first)
    guard day.frame.day != nil, day.frame.clock == nil, clock.frame.day == nil,
      clock.frame.clock != nil, day.frame.part == nil || clock.frame.part == nil
    else { return }
    var joined = clock.frame
    joined.day = day.frame.day
    joined.part = clock.frame.part ?? day.frame.part
    let said = "\(words(entities[day.entity].range)) … \(words(entities[clock.entity].range))"
    guard let resolution = resolver.resolve(joined, said: said) else { return }
    let note = [resolution.note, "the day and the time, said apart, read as one time"]
      .compactMap { $0 }.joined(separator: "; ")
    for index in [day.entity, clock.entity] {
      entities[index].value = .datetime(resolution.value)
      entities[index].note = note
    }
  }

  // MARK: Metrics and periods

  private func wordEntities(
    tokens: [EntityToken], text: NormalizedText, into entities: inout [Entity]
  ) {
    for (index, token) in tokens.enumerated() {
      // A count of steps: 走了5000步, 一万步.
      if case .number = token.kind, index + 1 < tokens.count, case .other = tokens[index + 1].kind,
        tokens[index + 1].isAttached, text.scalars[tokens[index + 1].range.lowerBound] == "步"
      {
        let at = tokens[index + 1].range.lowerBound
        entities.append(Entity(type: .metric, range: at..<(at + 1), value: .metric("steps")))
        continue
      }
      guard case .word(let word) = token.kind else { continue }
      switch word {
      case .metric(let metric):
        entities.append(
          Entity(type: .metric, range: token.range, value: .metric(metric.rawValue)))
      case .dayOffset(0), .dayAndPart(0, _):
        entities.append(Entity(type: .period, range: token.range, value: .period("today")))
      case .dayOffset(-1), .dayAndPart(-1, _):
        entities.append(Entity(type: .period, range: token.range, value: .period("yesterday")))
      case .weekRef(0):
        entities.append(Entity(type: .period, range: token.range, value: .period("this_week")))
      case .weekRef(-1):
        entities.append(Entity(type: .period, range: token.range, value: .period("last_week")))
      case .monthRef(0):
        entities.append(Entity(type: .period, range: token.range, value: .period("this_month")))
      case .monthRef(-1):
        entities.append(Entity(type: .period, range: token.range, value: .period("last_month")))
      default:
        break
      }
    }
  }

  // MARK: Places

  private func locationEntities(in text: NormalizedText, into entities: inout [Entity]) {
    let s = text.scalars
    var i = 0
    while i < s.count {
      let v = s[i].value
      let isCandidate =
        v >= 0x3400 || (isASCIILetter(v) && (i == 0 || !isASCIIAlphanumeric(s[i - 1].value)))
      if isCandidate, let match = gazetteer.match(in: s, from: i) {
        entities.append(
          Entity(type: .location, range: i..<match.end, value: .location(match.value)))
        i = match.end
      } else {
        i += 1
      }
    }
  }
}
