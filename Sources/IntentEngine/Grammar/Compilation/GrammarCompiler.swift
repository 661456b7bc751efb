import Foundation

/// A grammar file's text and where it came from.
public struct GrammarSource: Sendable {
  /// The path as the user gave it, for diagnostics.
  public var path: String
  /// The language folder it belongs to (`zh`, `en`).
  public var language: String
  /// The file's text.
  public var text: String
  /// The grammar folder it was loaded from, as given (`Grammars` for the built-ins).
  ///
  /// Folders are written apart, so a word of one folder never hides a keyword of another:
  /// each folder's keywords are also found where its own words split the text.
  public var folder: String

  /// Creates a source.
  public init(path: String, language: String, text: String, folder: String = "") {
    self.path = path
    self.language = language
    self.text = text
    self.folder = folder
  }
}

/// Validates grammar files together and compiles them into a ``CompiledGrammar``.
///
/// Every problem in every file is reported at once; a grammar with any error is not compiled.
public struct GrammarCompiler: Sendable {
  /// Lists the engine itself reads: they are never reported as unused.
  static let builtinLists: Set<String> = [
    "fillers", "conjunctions", "vocabulary", "function_words", "function_words_en", "vocatives",
    "vocatives_en", "surnames", "address_forms", "repairs", "repairs_en", "question_markers",
    "question_markers_en", "self_words", "self_words_en", "abandons", "abandons_en",
    "change_words", "change_words_en", "cutoffs", "cutoffs_en", "decreases", "decreases_en",
    "scope_all", "scope_all_en", "shopping_lists", "shopping_lists_en", "todo_lists",
    "todo_lists_en", "list_words", "list_words_en", "place_followers", "place_followers_en",
    "strandable_en", "relatives_en", "real_words_en", "clause_openers_en", "done_questions",
  ]

  let normalizer = Normalizer()

  /// Creates a compiler.
  public init() {}

  /// Returns every diagnostic for one file on its own, for editors and tests.
  public func diagnose(_ text: String, path: String, language: String = "zh") -> [Diagnostic] {
    switch compile([GrammarSource(path: path, language: language, text: text)], extraWords: []) {
    case .success(let grammar): grammar.warnings
    case .failure(let error): error.diagnostics
    }
  }

  /// Compiles sources into one grammar; `extraWords` (normalised gazetteer names) join the lexicon.
  public func compile(
    _ sources: [GrammarSource], extraWords: [String], calibration: Calibration = .default
  ) -> Result<CompiledGrammar, GrammarError> {
    compile(
      sources, normalizedWords: extraWords.map { Array($0.unicodeScalars) },
      calibration: calibration)
  }

  /// Compiles sources into one grammar; `normalizedWords` join the lexicon as they are.
  func compile(
    _ sources: [GrammarSource], normalizedWords: [[Unicode.Scalar]], calibration: Calibration
  ) -> Result<CompiledGrammar, GrammarError> {
    var diagnostics: [Diagnostic] = []
    var files: [GrammarFileSyntax] = []
    for source in sources {
      var parser = GrammarParser(path: source.path, language: source.language)
      files.append(parser.parse(source.text))
      diagnostics += parser.diagnostics
    }

    // Lists: one namespace; the same name in two languages merges, twice in one is an error.
    var listSyntax: [String: [ListSyntax]] = [:]
    var listLanguages: [String: [String: SourcePosition]] = [:]
    for file in files {
      for list in file.lists {
        if let first = listLanguages[list.name]?[file.language] {
          diagnostics.append(list.position.diagnostic(.duplicateList(list.name)))
          diagnostics.append(first.diagnostic(.firstDefinition, severity: .note))
          continue
        }
        listLanguages[list.name, default: [:]][file.language] = list.position
        listSyntax[list.name, default: []].append(list)
      }
    }

    // Intents: merge languages, reject duplicates within a language.
    var order: [String] = []
    var merged: [String: [IntentSyntax]] = [:]
    var firstByLanguage: [String: SourcePosition] = [:]
    for file in files {
      for intent in file.intents {
        let key = "\(file.language)\u{0}\(intent.id)"
        if let first = firstByLanguage[key] {
          diagnostics.append(intent.position.diagnostic(.duplicateIntent(intent.id)))
          diagnostics.append(first.diagnostic(.firstDefinition, severity: .note))
          continue
        }
        firstByLanguage[key] = intent.position
        if merged[intent.id] == nil { order.append(intent.id) }
        merged[intent.id, default: []].append(intent)
      }
    }
    order.sort()

    var lexicon = Lexicon()
    var targets: [[KeywordTarget]] = []
    let normalized = NormalizedWords(normalizer: normalizer)
    // Which folder each word and target comes from, for ``FolderLexicon``s.
    var folders = FolderWords(sources)
    func addWord(_ scalars: [Unicode.Scalar]) -> Int32? {
      guard !scalars.isEmpty else { return nil }
      let entry = lexicon.add(scalars)
      while targets.count <= Int(entry) { targets.append([]) }
      folders.noteWord(entry)
      return entry
    }

    // List words normalised once, for every group, exclude and pattern that refers to them.
    let normalizedLists = listSyntax.mapValues { lists in
      var forms: [[Unicode.Scalar]] = []
      for list in lists {
        for item in list.items where item.listReference == nil {
          forms.append(normalized(item.text))
        }
      }
      return forms
    }
    let patternLists = normalizedLists.mapValues(PatternWords.init)
    var usedLists: Set<String> = []
    /// The words of `items` with their normalised forms, `@list` references expanded.
    func expand(_ items: [GrammarItem]) -> [(item: GrammarItem, normalized: [Unicode.Scalar])] {
      var result: [(item: GrammarItem, normalized: [Unicode.Scalar])] = []
      result.reserveCapacity(items.count)
      for item in items {
        guard let name = item.listReference else {
          result.append((item, normalized(item.text)))
          continue
        }
        guard let lists = listSyntax[name], let words = normalizedLists[name] else {
          let suggestion = Diagnostic.Message.suggestion(for: name, among: listSyntax.keys.sorted())
          diagnostics.append(item.position.diagnostic(.unknownList(name, suggestion: suggestion)))
          continue
        }
        usedLists.insert(name)
        result.reserveCapacity(result.count + words.count + items.count)
        var word = words.makeIterator()
        for list in lists {
          for listItem in list.items {
            if listItem.listReference == nil {
              if let form = word.next() { result.append((listItem, form)) }
            } else {
              diagnostics.append(listItem.position.diagnostic(.nestedListReference))
            }
          }
        }
      }
      return result
    }

    var intents: [CompiledIntent] = []
    var examples: [GrammarExample] = []
    var entityTargets = [[KeywordTarget]](repeating: [], count: EntityType.allCases.count)
    for id in order {
      guard let parts = merged[id] else { continue }
      let intentIndex = Int32(intents.count)
      var slots: [SlotSpec] = []
      var slotPositions: [String: SourcePosition] = [:]
      var descriptions: [String: String] = [:]
      var threshold: Double?
      var groups: [CompiledGroup] = []
      var groupIndexByName: [String: Int] = [:]
      var excludes: [Double?] = []
      var excludeFlags: [ExcludeFlags] = []
      for part in parts {
        folders.enter(part.position.path)
        if let text = part.description { descriptions[part.language] = text }
        if let value = part.threshold { threshold = value }
        var seenHere: Set<String> = []
        for slot in part.slots {
          guard let type = EntityType(rawValue: slot.type) else {
            let suggestion = Diagnostic.Message.suggestion(
              for: slot.type, among: EntityType.allCases.map(\.rawValue))
            diagnostics.append(
              slot.typePosition.diagnostic(.unknownEntityType(slot.type, suggestion: suggestion)))
            continue
          }
          if !seenHere.insert(slot.name).inserted {
            diagnostics.append(slot.position.diagnostic(.duplicateSlot(slot.name)))
            continue
          }
          let spec = SlotSpec(
            name: slot.name, type: type, isRequired: slot.isRequired, isAbsolute: slot.isAbsolute,
            isShort: slot.isShort, isSigned: slot.isSigned)
          if let existing = slots.first(where: { $0.name == slot.name }) {
            if existing != spec {
              diagnostics.append(slot.position.diagnostic(.conflictingSlot(slot.name, intent: id)))
              if let first = slotPositions[slot.name] {
                diagnostics.append(first.diagnostic(.firstDefinition, severity: .note))
              }
            }
          } else {
            slots.append(spec)
            slotPositions[slot.name] = slot.position
          }
        }
        for group in part.groups {
          let groupIndex: Int
          if let existing = groupIndexByName[group.name] {
            groupIndex = existing
            groups[existing].weight = max(groups[existing].weight, group.weight)
            groups[existing].isRequired = groups[existing].isRequired || group.isRequired
          } else {
            groupIndex = groups.count
            groupIndexByName[group.name] = groupIndex
            groups.append(
              CompiledGroup(name: group.name, weight: group.weight, isRequired: group.isRequired))
          }
          for (item, form) in expand(group.items) {
            // `{slot}` stands for any entity that could fill the slot: a duration is itself
            // evidence for a timer.
            // The bytes first: most items are words, and comparing characters costs more.
            if item.text.utf8.first == UInt8(ascii: "{"), item.text.utf8.last == UInt8(ascii: "}"),
              item.text.hasPrefix("{"), item.text.hasSuffix("}")
            {
              let name = String(item.text.dropFirst().dropLast())
              guard let spec = slots.first(where: { $0.name == name }) else {
                let suggestion = Diagnostic.Message.suggestion(
                  for: name, among: slots.map(\.name))
                diagnostics.append(
                  item.position.diagnostic(.unknownSlotInKeyword(name, suggestion: suggestion)))
                continue
              }
              let type = spec.type == .date ? EntityType.datetime : spec.type
              entityTargets[type.rank].append(
                KeywordTarget(kind: .group, intent: intentIndex, index: Int32(groupIndex)))
              continue
            }
            guard let entry = addWord(form) else {
              diagnostics.append(item.position.diagnostic(.emptyKeyword(item.text)))
              continue
            }
            let target = KeywordTarget(kind: .group, intent: intentIndex, index: Int32(groupIndex))
            if !targets[Int(entry)].contains(target) { targets[Int(entry)].append(target) }
            folders.noteTarget(target, of: entry)
          }
        }
        for exclude in part.excludes {
          let excludeIndex = Int32(excludes.count)
          excludes.append(exclude.penalty)
          excludeFlags.append(exclude.flags)
          for (_, form) in expand(exclude.items) {
            guard let entry = addWord(form) else { continue }
            let target = KeywordTarget(kind: .exclude, intent: intentIndex, index: excludeIndex)
            folders.noteTarget(target, of: entry)
            // A word excluded by several lines (the zh and en lists both name "wifi") counts
            // once, as its strongest exclude: a veto, else the largest penalty.
            if let existing = targets[Int(entry)].firstIndex(where: {
              $0.kind == .exclude && $0.intent == intentIndex
            }) {
              let kept = excludes[Int(targets[Int(entry)][existing].index)]
              if let kept, exclude.penalty.map({ $0 > kept }) ?? true {
                targets[Int(entry)][existing] = target
              }
              continue
            }
            targets[Int(entry)].append(target)
          }
        }
      }
      if groups.isEmpty, let first = parts.first {
        diagnostics.append(first.position.diagnostic(.noKeywords(id)))
      }
      let slotTypes = Dictionary(slots.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
      var patterns: [Pattern] = []
      // Every parse that touches the intent walks all its expanded sequences: past the limit,
      // the rest of its patterns are not compiled.
      var sequences = 0
      let compiler = PatternCompiler(
        slots: Dictionary(slots.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }),
        lists: patternLists, normalize: { normalized($0) })
      for part in parts {
        folders.enter(part.position.path)
        for pattern in part.patterns {
          for name in Self.listReferences(in: pattern.source) where listSyntax[name] != nil {
            usedLists.insert(name)
          }
          guard sequences <= Pattern.intentExpansionLimit else { continue }
          folders.notePattern(pattern)
          switch compiler.compile(pattern) {
          case .success(let compiled):
            patterns.append(compiled)
            sequences += compiled.program.sequenceCount
            if sequences > Pattern.intentExpansionLimit {
              diagnostics.append(
                pattern.position.diagnostic(
                  .intentPatternsTooLarge(id, limit: Pattern.intentExpansionLimit)))
            }
          case .failure(let error): diagnostics += error.diagnostics
          }
          // Pattern literals join the lexicon so that segmentation respects them.
          for literal in Self.literals(in: pattern.source) { _ = addWord(normalized(literal)) }
        }
        for example in part.examples {
          for (name, _) in example.expectedSlots where slotTypes[name] == nil {
            diagnostics.append(example.position.diagnostic(.unknownExampleSlot(name, intent: id)))
          }
          examples.append(
            GrammarExample(
              text: example.text, intent: IntentID(id), isCounterexample: example.isCounterexample,
              expectedSlots: example.expectedSlots,
              location:
                "\(example.position.path):\(example.position.line):\(example.position.column)"
            ))
        }
      }
      var prompts: [String: [String: String]] = [:]
      for part in parts {
        for prompt in part.prompts {
          guard slots.contains(where: { $0.name == prompt.slot }) else {
            diagnostics.append(
              prompt.position.diagnostic(.unknownPromptSlot(prompt.slot, intent: id)))
            continue
          }
          prompts[part.language, default: [:]][prompt.slot] = prompt.text
        }
      }
      var spec = IntentSpec(
        id: IntentID(id), descriptions: descriptions, slots: slots, threshold: threshold)
      spec.prompts = prompts
      intents.append(
        CompiledIntent(
          spec: spec, groups: groups, excludes: excludes, excludeFlags: excludeFlags,
          patterns: patterns,
          hasTextSlot: slots.contains { $0.type == .text }))
    }

    // What the engine-read lists make their words, noted as (entry, role) pairs.
    var listRoles: [(entry: Int32, role: EntryRole)] = []
    var names = NameShapes()
    var changeWords = ChangeWords()
    var doneQuestions = DoneQuestions()
    var realWords: [[Unicode.Scalar]] = []
    for (name, lists) in listSyntax {
      // The list's words were normalised above, in this order.
      var forms = (normalizedLists[name] ?? []).makeIterator()
      // Surnames and forms of address are not words of their own: they only shape a name.
      // Words of change are read as text after a declining exclude.
      // Real words one edit from a keyword are no lexicon words: they only tell the spelling
      // index which corrections are weaker evidence.
      if name == "surnames" || name == "address_forms" || name.hasPrefix("change_words")
        || name.hasPrefix("real_words") || name.hasPrefix("done_questions")
      {
        for list in lists {
          for item in list.items where item.listReference == nil {
            let scalars = forms.next() ?? normalized(item.text)
            guard !scalars.isEmpty else { continue }
            if name == "surnames" { names.surnames.formUnion(scalars) }
            if name == "address_forms" { names.forms.insert(scalars) }
            if name.hasPrefix("change_words") { changeWords.words.append(scalars) }
            if name.hasPrefix("done_questions") { doneQuestions.endings.append(Array(scalars)) }
            if name.hasPrefix("real_words") { realWords.append(Array(scalars)) }
          }
        }
        continue
      }
      let role = Self.role(ofList: name)
      for list in lists {
        folders.enter(list.position.path)
        for item in list.items where item.listReference == nil {
          guard let entry = addWord(forms.next() ?? normalized(item.text)) else { continue }
          if let role { listRoles.append((entry, role)) }
        }
      }
    }
    // Gazetteer forms arrive normalised (``Gazetteer/surfaceScalars``); normalising is idempotent,
    // so they go in as they are.
    for word in normalizedWords {
      let entry = lexicon.add(word)
      while targets.count <= Int(entry) { targets.append([]) }
    }
    var roles = [EntryRole](repeating: [], count: lexicon.count)
    for entry in 0..<min(lexicon.count, targets.count) where !targets[entry].isEmpty {
      roles[entry].insert(.keyword)
    }
    for (entry, role) in listRoles { roles[Int(entry)].insert(role) }
    var strongestWeight = [Double](repeating: 0, count: lexicon.count)
    for entry in 0..<min(lexicon.count, targets.count) {
      for target in targets[entry] where target.kind == .group {
        let weight = intents[Int(target.intent)].groups[Int(target.index)].weight
        if intents[Int(target.intent)].takesPlace, weight >= Scorer.minimumPatternWeight {
          roles[entry].insert(.placeIntentKeyword)
        }
        strongestWeight[entry] = max(strongestWeight[entry], weight)
      }
    }
    var typoIndex = TypoIndex()
    // Room for every key the keywords may index, so that the index is not rehashed as it grows.
    var typoKeys = 0
    for entry in 0..<min(lexicon.count, targets.count) where !targets[entry].isEmpty {
      let length = lexicon.word(Int32(entry)).utf8.count
      if length >= TypoIndex.minimumSwappedLength, length <= TypoIndex.maximumLength {
        typoKeys += length + 1
      }
    }
    typoIndex.reserveCapacity(keys: typoKeys, entries: lexicon.count)
    for entry in 0..<min(lexicon.count, targets.count) where !targets[entry].isEmpty {
      typoIndex.add(lexicon.word(Int32(entry)), entry: Int32(entry))
    }
    var homophones = HomophoneIndex()
    for entry in 0..<min(lexicon.count, targets.count) where strongestWeight[entry] > 0 {
      var intents = targets[entry].compactMap { $0.kind == .group ? $0.intent : nil }
      intents = Array(Set(intents)).sorted()
      homophones.add(
        Array(lexicon.word(Int32(entry)).unicodeScalars), entry: Int32(entry), intents: intents)
    }
    for word in realWords { typoIndex.addRealWord(word) }
    typoIndex.seal()
    homophones.seal()
    // Last, so that every per-entry array above covers the entries the trie finds, and the
    // aliases that give a word one folder's meaning extend them.
    let folderLexicons = folders.makeLexicons(
      lexicon: &lexicon, targets: &targets, roles: &roles, strongestWeight: &strongestWeight,
      gazetteer: normalizedWords
    ) { intents[Int($0.intent)].groups[Int($0.index)].weight }

    var warnings = folders.hiddenPatternWords(lexicon: lexicon) { normalized($0) }
    for (name, lists) in listSyntax.sorted(by: { $0.key < $1.key })
    where !usedLists.contains(name) && !Self.builtinLists.contains(name) {
      for list in lists {
        warnings.append(list.position.diagnostic(.unusedList(name), severity: .warning))
      }
    }
    if diagnostics.contains(where: { $0.severity == .error }) {
      return .failure(GrammarError(diagnostics: diagnostics + warnings))
    }
    return .success(
      CompiledGrammar(
        lexicon: lexicon, intents: intents, targets: targets, roles: roles,
        strongestWeight: strongestWeight, entityTargets: entityTargets,
        folderLexicons: folderLexicons,
        typoIndex: typoIndex, homophones: homophones, names: names, changeWords: changeWords,
        doneQuestions: doneQuestions,
        examples: examples,
        warnings: Diagnostic.ordered(warnings + diagnostics), calibration: calibration))
  }

  /// The role an engine-read list gives its words, or nil for a list the engine does not read.
  static func role(ofList name: String) -> EntryRole? {
    if name == "fillers" { return .filler }
    if name == "conjunctions" { return .conjunction }
    if name.hasPrefix("function_words") { return .functionWord }
    if name.hasPrefix("vocatives") { return .vocative }
    if name.hasPrefix("repairs") { return .repair }
    if name.hasPrefix("question_markers") { return .questionMarker }
    if name.hasPrefix("self_words") { return .selfWord }
    if name.hasPrefix("abandons") { return .abandon }
    if name.hasPrefix("cutoffs") { return .cutoff }
    if name.hasPrefix("decreases") { return .decrease }
    if name.hasPrefix("scope_all") { return .scopeAll }
    if name.hasPrefix("shopping_lists") { return .shoppingList }
    if name.hasPrefix("todo_lists") { return .todoList }
    if name.hasPrefix("list_words") { return .listWord }
    if name.hasPrefix("place_followers") { return .placeFollower }
    if name.hasPrefix("strandable") { return .strandable }
    if name.hasPrefix("relatives") { return .relative }
    if name.hasPrefix("clause_openers") { return .clauseOpener }
    return nil
  }

  /// The `@name` list references in a pattern's source.
  static func listReferences(in source: String) -> [String] {
    var names: [String] = []
    // Name scalars are ASCII: they are gathered as bytes and made a string once.
    var current: [UInt8]?
    func flush() {
      if let name = current, !name.isEmpty { names.append(String(decoding: name, as: UTF8.self)) }
    }
    for scalar in source.unicodeScalars {
      if scalar == "@" {
        flush()
        current = []
      } else if current != nil {
        if PatternCompiler.isNameScalar(scalar) {
          current?.append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
          flush()
          current = nil
        }
      }
    }
    flush()
    return names
  }

  /// The plain CJK words of a pattern (between brackets and placeholders), for segmentation.
  static func literals(in source: String) -> [String] {
    var words: [String] = []
    // Gathered as UTF-8 and made a string once, with their scalar counts.
    var current: [UInt8] = []
    var count = 0
    var depth = 0
    func flush() {
      if count >= 2 { words.append(String(decoding: current, as: UTF8.self)) }
      current.removeAll(keepingCapacity: true)
      count = 0
    }
    for scalar in source.unicodeScalars {
      switch scalar {
      case "{", "@":
        depth += scalar == "{" ? 1 : 0
        flush()
      case "}":
        depth -= 1
      case "(", ")", "[", "]", "|", "*", " ":
        flush()
      default:
        if depth == 0, scalar.value >= 0x2E80 {
          UTF8.encode(scalar) { current.append($0) }
          count += 1
        } else {
          flush()
        }
      }
    }
    flush()
    return words
  }
}

extension Diagnostic.Message {
  static func duplicateList(_ name: String) -> Self { "list '\(name)' is already defined" }
  static func intentPatternsTooLarge(_ id: String, limit: Int) -> Self {
    "patterns of intent '\(id)' expand to more than \(limit) alternatives in all; merge patterns or use fewer optional parts"
  }
  static func unknownSlotInKeyword(_ name: String, suggestion: String?) -> Self {
    let fix =
      suggestion.map { "did you mean '{\($0)}'?" } ?? "declare it with 'slot \(name): <type>'"
    return "keyword '{\(name)}' names slot '\(name)', which the intent does not declare; \(fix)"
  }
  static let firstDefinition: Self = "first definition is here"
  static func duplicateIntent(_ id: String) -> Self { "intent '\(id)' is already defined" }
  static func unknownEntityType(_ name: String, suggestion: String?) -> Self {
    guard let suggestion else {
      return
        "unknown entity type '\(name)'; expected one of \(EntityType.allCases.map(\.rawValue).joined(separator: ", "))"
    }
    return "unknown entity type '\(name)'; did you mean '\(suggestion)'?"
  }
  static func duplicateSlot(_ name: String) -> Self { "slot '\(name)' is declared twice" }
  static func conflictingSlot(_ name: String, intent: String) -> Self {
    "slot '\(name)' of intent '\(intent)' is declared differently in another language; declare it the same way in both"
  }
  static func emptyKeyword(_ text: String) -> Self {
    "keyword '\(text)' is empty once normalised; remove it"
  }
  static func noKeywords(_ id: String) -> Self {
    "intent '\(id)' has no keywords; add a line such as 'keywords trigger (weight 2): …'"
  }
  static func unknownPromptSlot(_ name: String, intent: String) -> Self {
    "prompt for slot '\(name)', which intent '\(intent)' does not declare; declare it with 'slot \(name): …'"
  }
  static func unknownExampleSlot(_ name: String, intent: String) -> Self {
    "example expects slot '\(name)', which intent '\(intent)' does not declare"
  }
  static let nestedListReference: Self =
    "a list cannot refer to another list; write the words out"
  static func unusedList(_ name: String) -> Self { "list '\(name)' is never used" }
}

/// Grammar words in normalised form, for one compile.
///
/// Lists are expanded into every group and pattern that names them, so the same word is met many
/// times: plain words are cheaper to normalise again than to look up; the rest are remembered.
private final class NormalizedWords {
  let normalizer: Normalizer
  private var forms: [String: [Unicode.Scalar]] = [:]

  init(normalizer: Normalizer) { self.normalizer = normalizer }

  func callAsFunction(_ text: String) -> [Unicode.Scalar] {
    // A plain word neither starts nor ends with a space: pattern text often does ("how ", " my"),
    // and is looked up without reading it as a plain word first.
    let space = UInt8(ascii: " ")
    if text.utf8.first != space, text.utf8.last != space,
      let plain = normalizer.plainScalars(of: text)
    {
      return plain
    }
    if let known = forms[text] { return known }
    let scalars = normalizer.normalize(text).scalars
    forms[text] = scalars
    return scalars
  }
}
