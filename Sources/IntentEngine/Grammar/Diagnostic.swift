/// A problem found in a grammar or list file, printed in the compiler's format.
///
/// `path:line:column: severity: message` — paths as the user gave them, lines and columns from 1,
/// columns counted in Unicode scalars.
public struct Diagnostic: Sendable, Equatable, Comparable, CustomStringConvertible {
  /// How serious a problem is; only errors fail a load.
  public enum Severity: String, Sendable, Comparable {
    case error, warning, note

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs.rank < rhs.rank
    }

    private var rank: Int {
      switch self {
      case .error: 0
      case .warning: 1
      case .note: 2
      }
    }
  }

  /// The text of a diagnostic; constructors live beside the code that emits them.
  public struct Message: Sendable, Equatable, ExpressibleByStringInterpolation,
    CustomStringConvertible
  {
    /// The one-line message: lowercase start, no final period.
    public let text: String
    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: DefaultStringInterpolation) {
      text = String(stringInterpolation: stringInterpolation)
    }
    public var description: String { text }
  }

  /// The file, as the user named it.
  public var path: String
  /// The line, from 1.
  public var line: Int
  /// The column in Unicode scalars, from 1.
  public var column: Int
  /// How serious the problem is.
  public var severity: Severity
  /// What is wrong and the likely fix.
  public var message: Message

  /// Creates a diagnostic.
  public init(path: String, line: Int, column: Int, severity: Severity = .error, _ message: Message)
  {
    self.path = path
    self.line = line
    self.column = column
    self.severity = severity
    self.message = message
  }

  public var description: String {
    "\(path):\(line):\(column): \(severity.rawValue): \(message.text)"
  }

  public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
    (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
  }

  /// Sorts diagnostics by position while each note stays right after the problem it explains.
  ///
  /// A note belongs to the error or warning emitted just before it ("first definition is
  /// here" after "intent 'timer.start' is already defined"), wherever the note points.
  public static func ordered(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    var groups: [[Diagnostic]] = []
    for diagnostic in diagnostics {
      if diagnostic.severity == .note, !groups.isEmpty {
        groups[groups.count - 1].append(diagnostic)
      } else {
        groups.append([diagnostic])
      }
    }
    let sorted = groups.enumerated().sorted { a, b in
      let (left, right) = (a.element[0], b.element[0])
      if left < right { return true }
      if right < left { return false }
      return a.offset < b.offset
    }
    return sorted.flatMap(\.element)
  }
}

/// The grammars could not be loaded; every problem found is listed.
public struct GrammarError: Error, Equatable, CustomStringConvertible {
  /// All diagnostics of the failed load, errors and warnings sorted by position, each followed
  /// by its notes.
  public var diagnostics: [Diagnostic]

  /// Creates an error from the diagnostics of a load, each note right after its problem.
  public init(diagnostics: [Diagnostic]) { self.diagnostics = Diagnostic.ordered(diagnostics) }

  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension Diagnostic.Message {
  /// Returns the known name closest to `name`, if it is close enough to be a typo.
  static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
    Spelling.suggestion(for: name, among: candidates)
  }
}
