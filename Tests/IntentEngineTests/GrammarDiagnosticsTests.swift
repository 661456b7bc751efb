@testable import IntentEngine
import Testing
import TestSupport

struct GrammarDiagnosticsTests {
  private func firstLines(_ marked: MarkedText) -> [String] {
    GrammarCompiler().diagnose(marked.text, path: "t.grammar").filter { $0.severity == .error }
      .map(\.description)
  }

  @Test func unknownEntityTypeIsReportedWhereItIsNamed() {
    let grammar = MarkedText(
      """
      intent reminder.create
        slot when: 1️⃣datatime
        keywords remind: remind
      """)
    #expect(
      firstLines(grammar) == [
        "t.grammar:\(grammar["1️⃣"]): error: unknown entity type 'datatime'; did you mean 'datetime'?"
      ])
  }

  @Test func misspeltDirectiveGetsASuggestion() {
    let grammar = MarkedText(
      """
      intent timer.start
        keywords timer: timer
        1️⃣exampel: set a timer
      """)
    #expect(
      firstLines(grammar) == [
        "t.grammar:\(grammar["1️⃣"]): error: unknown directive 'exampel'; did you mean 'example'?"
      ])
  }

  @Test func everyProblemIsReportedAtOnceInOrder() {
    let grammar = MarkedText(
      """
      intent 1️⃣Timer.Start
        keywords timer: timer
      intent memo.create
        keywords memo (weight 2): note
        pattern: note 2️⃣{txt}
        threshold: 3️⃣1.5
      """)
    #expect(
      firstLines(grammar) == [
        "t.grammar:\(grammar["1️⃣"]): error: intent id 'Timer.Start' is not of the form 'domain.action' in lower-case letters, digits and '_'",
        "t.grammar:\(grammar["2️⃣"]): error: pattern names slot 'txt', which the intent does not declare; add 'slot txt: <type>'",
        "t.grammar:\(grammar["3️⃣"]): error: threshold '1.5' is not a number between 0 and 1",
      ])
  }

  @Test func duplicateIntentPointsAtTheFirstDefinition() {
    let grammar = MarkedText(
      """
      intent 1️⃣timer.start
        keywords timer: timer
      intent 2️⃣timer.start
        keywords timer: countdown
      """)
    let all = GrammarCompiler().diagnose(grammar.text, path: "t.grammar").map(\.description)
    #expect(
      all == [
        "t.grammar:\(grammar["2️⃣"]): error: intent 'timer.start' is already defined",
        "t.grammar:\(grammar["1️⃣"]): note: first definition is here",
      ])
  }

  @Test func unknownListSuggestsTheClosestName() {
    let grammar = MarkedText(
      """
      list fillers: please
      list colours: red, green
      intent paint.start
        keywords paint: paint
        exclude (veto): 1️⃣@colors
      """)
    #expect(
      firstLines(grammar) == [
        "t.grammar:\(grammar["1️⃣"]): error: unknown list '@colors'; did you mean '@colours'?"
      ])
  }

  @Test func listInsideAListIsReportedWhereverTheOuterListIsUsed() {
    let grammar = MarkedText(
      """
      list colours: red, 1️⃣@shades, green
      list 3️⃣shades: pink
      intent paint.start
        keywords paint: paint, @colours
        exclude (veto): 2️⃣@greys, @colours
      """)
    let all = GrammarCompiler().diagnose(grammar.text, path: "t.grammar").map(\.description)
    let nested =
      "t.grammar:\(grammar["1️⃣"]): error: a list cannot refer to another list; write the words out"
    #expect(
      all == [
        nested, nested, "t.grammar:\(grammar["3️⃣"]): warning: list 'shades' is never used",
        "t.grammar:\(grammar["2️⃣"]): error: unknown list '@greys'; declare it with 'list greys: …'",
      ])
  }

  @Test func unclosedBracketInPatternIsReportedAtTheBracket() {
    let grammar = MarkedText(
      """
      intent timer.start
        slot duration: duration
        keywords timer: timer
        pattern: timer 1️⃣(for {duration}
      """)
    #expect(
      firstLines(grammar) == ["t.grammar:\(grammar["1️⃣"]): error: '(' is never closed; add ')'"])
  }

  @Test func punctuationAlternativeIsReportedBecauseItWouldMatchNothing() {
    let grammar = MarkedText(
      """
      intent memo.create
        slot text: text
        keywords memo: note
        pattern: 1️⃣note (that|:) {text}
      """)
    #expect(
      firstLines(grammar) == [
        "t.grammar:\(grammar["1️⃣"]): error: alternative ':' is empty once normalised (punctuation is ignored); remove it, or use '[…]' for an optional part"
      ])
  }

  @Test func entityKeywordMustNameADeclaredSlot() {
    let grammar = MarkedText(
      """
      intent timer.start
        slot duration: duration
        keywords trigger (weight 2): timer
        keywords length (weight 1.5): 1️⃣{durations}
      """)
    #expect(
      firstLines(grammar) == [
        "t.grammar:\(grammar["1️⃣"]): error: keyword '{durations}' names slot 'durations', which the intent does not declare; did you mean '{duration}'?"
      ])
  }

  @Test func columnsCountHanCharactersAsOne() {
    let grammar = MarkedText(
      """
      intent timer.start
        keywords 计时 (weight 2): 倒计时
        slot 时长: 1️⃣时长
      """)
    #expect(
      firstLines(grammar).first?.hasPrefix(
        "t.grammar:\(grammar["1️⃣"]): error: unknown entity type '时长'")
        == true)
  }

  @Test func unusedListIsAWarningThatDoesNotFailTheLoad() {
    let grammar = MarkedText(
      """
      list 1️⃣colours: red
      intent paint.start
        keywords paint: paint
      """)
    let all = GrammarCompiler().diagnose(grammar.text, path: "t.grammar")
    #expect(
      all.map(\.description) == ["t.grammar:\(grammar["1️⃣"]): warning: list 'colours' is never used"]
    )
  }

  @Test func intentWithoutKeywordsIsRejected() {
    let grammar = MarkedText(
      """
      intent 1️⃣timer.start
        description: starts timers
      """)
    #expect(
      firstLines(grammar) == [
        "t.grammar:\(grammar["1️⃣"]): error: intent 'timer.start' has no keywords; add a line such as 'keywords trigger (weight 2): …'"
      ])
  }

  /// Brackets 15,000 deep once overflowed the stack of the recursive pattern parser.
  @Test(arguments: ["[", "(a|"])
  func deeplyNestedBracketsAreReportedWhereTheyPassTheLimit(_ opener: String) {
    let tooDeep = String(repeating: opener, count: 15_000 - Pattern.nestingLimit)
    let grammar = MarkedText(
      "intent a.b\n  keywords k: a\n  pattern: "
        + String(repeating: opener, count: Pattern.nestingLimit) + "1️⃣" + tooDeep + "a")
    #expect(
      firstLines(grammar) == [
        "t.grammar:\(grammar["1️⃣"]): error: brackets nest more than \(Pattern.nestingLimit) deep; flatten the pattern or split it into several 'pattern:' lines"
      ])
  }

  @Test func bracketsAtTheNestingLimitLoad() {
    let depth = Pattern.nestingLimit
    let grammar =
      "intent a.b\n  keywords k: a\n  pattern: " + String(repeating: "[", count: depth) + "a"
      + String(repeating: "]", count: depth) + " b\n"
    #expect(firstLines(MarkedText(grammar)) == [])
  }

  @Test(arguments: [
    "\u{0}\u{1}intent", "intent\n  keywords", "intent a.b\n  pattern: ((((((", "   \n\t\n",
    String(repeating: "intent x.y\n  keywords k: a\n", count: 3),
    "intent a.b\n  keywords k (weight 1e400): x", "list : ,,,", "intent a.b\n  slot : ",
  ])
  func malformedInputNeverCrashes(_ text: String) {
    _ = GrammarCompiler().diagnose(text, path: "t.grammar")
  }
}
