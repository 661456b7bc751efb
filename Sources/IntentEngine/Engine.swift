public import Foundation

/// The on-device classifier: text in, ranked intents with slots and calibrated confidence out.
///
/// An engine is immutable and `Sendable`; build it once and share it. `parse` is pure and
/// synchronous: the same grammars, text and context always give the same result.
public struct Engine: Sendable {
  /// The compiled grammars.
  public let grammar: CompiledGrammar
  let normalizer = Normalizer()
  let tokenizer: Tokenizer
  let extractor: EntityExtractor
  let scorer: Scorer
  /// The calibration's signal weights, read once; nil when confidence comes from the share alone.
  let weights: ConfidenceWeights?

  /// Longest utterance matched, in Unicode scalars; longer text is cut and the cut is explained.
  ///
  /// Commands are short, and the bound keeps matching time linear in the worst case.
  public static let maximumLength = 1_000

  /// Least keyword-group weight each side of a conjunction needs before a split is tried; a
  /// question word or possessive alone never makes a command (tuned on the `dev` multi slice).
  static let splitKeywordWeight = 1.0

  /// The same for punctuation, which joins far more clauses than commands: each side needs a
  /// trigger ("提醒我", "timer", "weather"), not a word that only describes.
  static let punctuationSplitWeight = 2.0

  /// Most commands split out of one utterance.
  public static let maximumClauses = 4
  /// How many clauses from the end are tried as a command after context.
  static let contextClausesTried = 2
  /// How many joints (conjunctions, punctuation) with a main keyword on each side a split tries:
  /// rambling speech has many, and two commands rarely need more than the first few.
  static let jointsTried = 2
  /// The smallest exclude penalty in the context that keeps its command from being read alone.
  static let contextExcludePenalty = 3.0

  /// Creates an engine from compiled grammars and a gazetteer.
  public init(grammar: CompiledGrammar, gazetteer: Gazetteer) {
    self.grammar = grammar
    self.tokenizer = Tokenizer(lexicon: grammar.lexicon)
    self.extractor = EntityExtractor(gazetteer: gazetteer)
    self.scorer = Scorer(grammar: grammar)
    self.weights = ConfidenceWeights(grammar.calibration)
  }

  /// Loads the built-in grammars plus any user grammar folders, in that order.
  ///
  /// - Throws: ``GrammarError`` listing every problem in every file; nothing is half-loaded.
  public static func load(
    userGrammars: [URL] = [], includeBuiltins: Bool = true
  ) throws(GrammarError) -> Engine {
    let gazetteer = try Gazetteer.builtin()
    let builtin =
      includeBuiltins
      ? try GrammarLoader.builtin() : GrammarLoader.Loaded(sources: [], calibration: .default)
    let loaded = try GrammarLoader.load(
      roots: userGrammars.map { ($0, $0.path) }, after: builtin)
    switch GrammarCompiler().compile(
      loaded.sources, normalizedWords: gazetteer.surfaceScalars, calibration: loaded.calibration)
    {
    case .success(var grammar):
      grammar.warnings = Diagnostic.ordered(loaded.warnings + grammar.warnings)
      return Engine(grammar: grammar, gazetteer: gazetteer)
    case .failure(let error):
      throw GrammarError(diagnostics: loaded.warnings + error.diagnostics)
    }
  }

  /// The same grammars under another calibration.
  ///
  /// For fitting one: where an utterance splits into commands depends on confidence, so a fit is
  /// checked by parsing again under what it fitted.
  public func calibrated(_ calibration: Calibration) -> Engine {
    var grammar = grammar
    grammar.calibration = calibration
    return Engine(grammar: grammar, gazetteer: extractor.gazetteer)
  }

  /// `text` as the grammars read it: normalised, then with homophones of Chinese keywords
  /// respelt.
  func normalize(_ text: String) -> NormalizedText {
    let normalized = normalizer.normalize(text)
    return grammar.homophones.respelling(normalized, lexicon: grammar.lexicon) ?? normalized
  }

  /// The intents the grammars declare, in id order.
  public var intents: [IntentSpec] { grammar.intentSpecs }

  /// The confidence calibration and routing thresholds in force.
  public var calibration: Calibration { grammar.calibration }

  /// Classifies one utterance, splitting it into several commands when each part is confident.
  public func parse(_ text: String, context: ParseContext = ParseContext()) -> ParseResult {
    parse(text, context: context, budget: MatchBudget())
  }

  /// Classifies one utterance as `parse` does, but keeps the best guess when it is below the
  /// offline threshold: `intent` and `slots` stay filled and `route` is `fallback`.
  ///
  /// For evaluation: `intent bench` scores the slots of the guess, as it scores its intent, so
  /// that slot accuracy does not fall whenever confidence does.
  public func bestGuess(_ text: String, context: ParseContext = ParseContext()) -> ParseResult {
    parse(text, context: context, budget: MatchBudget(), answering: false)
  }

  /// Classifies one utterance, drawing all pattern matching from `budget`; with `answering`, a
  /// guess below the offline threshold is no answer.
  func parse(
    _ text: String, context: ParseContext, budget: MatchBudget, answering: Bool = true
  ) -> ParseResult {
    var truncated = false
    var input = text
    // Scalars are never more than UTF-8 bytes, so most texts need no scalar count.
    if text.utf8.count > Self.maximumLength, text.unicodeScalars.count > Self.maximumLength {
      var cut = ""
      cut.unicodeScalars.append(contentsOf: text.unicodeScalars.prefix(Self.maximumLength))
      input = cut
      truncated = true
    }
    let normalized = normalize(input)
    var result = parseClause(normalized, context: context, budget: budget)
    if answering { answer(&result) }
    if truncated {
      result.text = text
      result.explanation.append(
        Evidence(
          kind: .note,
          detail: "only the first \(Self.maximumLength) characters were read", contribution: 0))
    }
    return result
  }

  /// The result as callers see it: below the offline threshold the best guess is no answer.
  ///
  /// It stays in `alternatives`, so a caller that reads only `intent` never acts on it; inside the
  /// engine the guess is kept, since a clause read with its context may still confirm it.
  private func answer(_ result: inout ParseResult) {
    for index in result.clauses.indices { answer(&result.clauses[index]) }
    guard let intent = result.intent else { return }
    let threshold = grammar.intents.first { $0.spec.id == intent }?.spec.threshold
    guard
      result.confidence < min(threshold ?? calibration.localThreshold, calibration.offlineThreshold)
    else { return }
    result.intent = nil
    result.slots = []
    result.missingSlots = []
    result.prompt = nil
  }

  func isConfident(_ result: ParseResult) -> Bool {
    isConfidentIntent(result) && result.missingSlots.isEmpty
  }

  /// Whether the intent is sure, whatever details it still lacks.
  func isConfidentIntent(_ result: ParseResult) -> Bool {
    result.intent != nil && result.route == .local
  }

  /// Runs the pipeline on one piece of text.
  func classify(
    _ normalized: NormalizedText, context: ParseContext, budget: MatchBudget
  ) -> (ParseResult, Analysis) {
    let analysis = analyse(normalized, context: context, budget: budget)
    return (result(for: analysis), analysis)
  }

  /// Reads tokens, entities and keywords: everything before intents are compared.
  func analyse(
    _ normalized: NormalizedText, context: ParseContext, budget: MatchBudget
  ) -> Analysis {
    let tokens = tokenizer.tokens(in: normalized)
    let entities = extractor.entities(in: normalized, context: context)
    return scorer.analyse(normalized, tokens: tokens, entities: entities, budget: budget)
  }

  /// Compares the intents on an analysis and reads the best one's slots.
  func result(for analysis: Analysis) -> ParseResult {
    let normalized = analysis.text
    let touched = scorer.targetedHits(in: analysis)
    let candidates = scorer.candidates(for: analysis, touched: touched)
    let calibration = grammar.calibration
    let shares = calibration.shares(of: candidates.map(\.score))
    // Each candidate is measured against the best other one, or "none" when it stands alone.
    let first = candidates.first?.score ?? calibration.nullScore
    let second = candidates.count > 1 ? candidates[1].score : calibration.nullScore
    let signals = zip(candidates, shares).enumerated().map { index, pair in
      ConfidenceSignals.of(
        pair.0, share: pair.1, bestOther: index == 0 ? max(second, calibration.nullScore) : first,
        asks: analysis.asks)
    }
    let alternatives = candidates.indices.map { index in
      Alternative(
        intent: grammar.intents[candidates[index].intent].id,
        confidence: weights?.confidence(for: signals[index])
          ?? calibration.confidence(forShare: shares[index]),
        score: candidates[index].score)
    }
    guard let best = candidates.first, let top = alternatives.first else {
      // Why nothing was found: the vetoes that ruled out intents, or that no keyword was said.
      return ParseResult(
        text: normalized.original, normalizedText: normalized.string, intent: nil, confidence: 0,
        score: 0, route: .fallback, slots: [], missingSlots: [], alternatives: [],
        explanation: scorer.whyNoCandidate(in: analysis, touched: touched))
    }
    let winner = grammar.intents[best.intent]
    let threshold = winner.threshold ?? calibration.localThreshold
    // Room for the margin, the threshold and a note on how the whole was read.
    var (explanation, slots) = scorer.explain(best, in: analysis, extra: 3)
    if candidates.count > 1 {
      explanation.append(
        Evidence(
          kind: .margin,
          wording: .margin(runnerUp: alternatives[1].intent.rawValue, score: candidates[1].score),
          contribution: best.score - candidates[1].score))
    }
    let route: LocalRoute = top.confidence >= threshold ? .local : .fallback
    explanation.append(
      Evidence(
        kind: .threshold,
        wording: .threshold(
          confidence: top.confidence, threshold: threshold,
          missingSlots: !best.missingSlots.isEmpty),
        contribution: 0))
    return ParseResult(
      text: normalized.original, normalizedText: normalized.string, intent: winner.id,
      confidence: top.confidence, score: best.score, route: route, slots: slots,
      missingSlots: best.missingSlots,
      prompt: best.missingSlots.first.map {
        winner.spec.prompt(for: $0, language: normalized.isChinese ? "zh" : "en")
      },
      alternatives: alternatives, explanation: explanation, signals: signals.first)
  }
}
