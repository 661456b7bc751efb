import Foundation
import IntentEngine

/// `intent parse`: classifies text and prints the result as text, JSON or JSON lines.
enum ParseCommand {
  static let usage = """
    Usage: intent parse [--json | --jsonl [--explain] [--jobs <n>]] [--now <ISO 8601>]
                        [--time-zone <zone>] [--grammars <dir>]… [--no-builtin] [<text>]

      <text>           the utterance; read from standard input when omitted
      --json           print one JSON object, with the explanation
      --jsonl          read one utterance per input line (raw text or {"text": …}) and print
                       one JSON object per line, in order, each as soon as its line arrives
      --explain        with --jsonl: add normalized, score and explanation to each object
      --jobs           with --jsonl: parse on this many cores (default: all), order kept
      --now            the clock to read relative times against (default: now)
      --time-zone      the zone for clock times (default: $TZ, else the system zone)
      --grammars       a folder of user grammars, loaded next to the built-ins (repeatable)
      --no-builtin     load only the folders given with --grammars

    """

  static func run(_ arguments: [String], io: CommandIO) async throws -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.write(usage)
      return 0
    }
    let parsed = try Arguments(
      arguments, flags: EngineOptions.flags.union(["--json", "--jsonl", "--explain"]),
      options: EngineOptions.options.union(["--jobs"]))
    if parsed.has("--json"), parsed.has("--jsonl") {
      throw UsageError(message: "'--json' and '--jsonl' cannot be used together")
    }
    if parsed.has("--jsonl"), !parsed.positional.isEmpty {
      throw UsageError(message: "'--jsonl' reads standard input; remove the text argument")
    }
    if !parsed.has("--jsonl") {
      for option in ["--explain", "--jobs"] where parsed.has(option) || parsed.value(option) != nil
      {
        throw UsageError(message: "'\(option)' applies to '--jsonl' only; add '--jsonl'")
      }
    }
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    if let text = parsed.value("--jobs") {
      guard let count = Int(text), (1...256).contains(count) else {
        throw UsageError(message: "'--jobs' needs a number from 1 to 256, not '\(text)'")
      }
      jobs = count
    }
    let options = try EngineOptions(parsed, io: io)
    guard let engine = options.loadEngine(io: io) else { return 1 }

    if parsed.has("--jsonl") {
      let pipe = JSONLPipe(
        engine: engine, context: options.context, includeExplanation: parsed.has("--explain"),
        jobs: jobs)
      await pipe.run(io: io)
      return 0
    }
    var text = parsed.positional.joined(separator: " ")
    if parsed.positional.isEmpty {
      guard let input = String(data: io.readInput(), encoding: .utf8) else {
        io.writeError("error: standard input is not valid UTF-8\n")
        return 1
      }
      text = input.trimmingTrailingNewlines
    }
    let result = engine.parse(text, context: options.context)
    if parsed.has("--json") {
      io.write(result.json().prettyJSONText + "\n")
    } else {
      io.write(ResultFormatter.describe(result))
    }
    return 0
  }

  /// The output object for one `--jsonl` input line: a result, or an `error` saying why not.
  static func jsonlResult(for line: JSONLines.Line, engine: Engine, defaultContext: ParseContext)
    -> JSONValue
  {
    switch request(for: line, defaultContext: defaultContext) {
    case .success(let (text, context)): engine.parse(text, context: context).json()
    case .failure(let error): error.value
    }
  }

  /// The text and clock to parse for one `--jsonl` line, or the error object to print instead.
  ///
  /// `date` and `zone` read a line's `now` and `tz`; the bulk pipe passes cached readers, since
  /// fixture lines repeat the same few values and each reading costs a formatter.
  static func request(
    for line: JSONLines.Line, defaultContext: ParseContext,
    date: (String) -> Date? = EngineOptions.date(fromISO8601:),
    zone: (String) -> TimeZone? = { TimeZone(identifier: $0) }
  ) -> Result<(String, ParseContext), JSONLines.ErrorObject> {
    switch line.request {
    case .failure(let error):
      return .failure(
        JSONLines.ErrorObject(
          .object([
            ("line", .number(Double(line.number))), ("text", .null),
            ("error", .string(error.message)),
          ])))
    case .success(let request):
      var context = defaultContext
      if let now = request.now {
        guard let date = date(now) else {
          return .failure(
            JSONLines.ErrorObject(
              .object([
                ("line", .number(Double(line.number))), ("text", .string(request.text)),
                ("error", .string("'now' is not an ISO 8601 time: '\(now)'")),
              ])))
        }
        context.now = date
      }
      if let name = request.timeZone {
        guard let named = zone(name) else {
          return .failure(
            JSONLines.ErrorObject(
              .object([
                ("line", .number(Double(line.number))), ("text", .string(request.text)),
                ("error", .string("unknown time zone '\(name)'")),
              ])))
        }
        context.timeZone = named
      }
      return .success((request.text, context))
    }
  }
}

/// Splits JSON-lines input into requests, turning unreadable lines into messages, not failures.
enum JSONLines {
  /// One utterance to parse, with an optional clock and zone of its own.
  struct Request: Sendable {
    var text: String
    var now: String?
    var timeZone: String?
    /// The whole object, when the line was JSON (fixtures carry expectations in it).
    var object: JSONValue?
  }

  /// One input line and what could be read from it.
  struct Line: Sendable {
    var number: Int
    var request: Result<Request, LineError>
  }

  /// The object printed in place of a result for a line that cannot be parsed.
  struct ErrorObject: Error, Sendable {
    var value: JSONValue
    init(_ value: JSONValue) { self.value = value }
  }

  /// Why a line could not be read.
  struct LineError: Error, Sendable {
    var message: String
  }

  /// Reads every line of `data`; a final empty line is not a line.
  static func lines(in data: Data) -> [Line] {
    var result: [Line] = []
    var pieces = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if pieces.last?.isEmpty == true { pieces.removeLast() }
    for (index, piece) in pieces.enumerated() {
      var bytes = Data(piece)
      if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
      result.append(Line(number: index + 1, request: request(from: bytes)))
    }
    return result
  }

  static func request(from bytes: some Collection<UInt8>) -> Result<Request, LineError> {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .failure(LineError(message: "line is not valid UTF-8"))
    }
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    guard trimmed.first == "{" else { return .success(Request(text: text)) }
    let object: JSONValue
    do {
      object = try JSONValue(parsing: Data(trimmed.utf8))
    } catch {
      return .failure(LineError(message: "line is not valid JSON"))
    }
    guard case .object = object else {
      return .failure(LineError(message: "line is not a JSON object"))
    }
    guard let field = object["text"] else {
      return .failure(LineError(message: "object has no 'text' field"))
    }
    guard let utterance = field.stringValue else {
      return .failure(LineError(message: "'text' is not a string"))
    }
    return .success(
      Request(
        text: utterance, now: object["now"]?.stringValue, timeZone: object["tz"]?.stringValue,
        object: object))
  }
}

extension String {
  var trimmingTrailingNewlines: String {
    var text = self
    while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
    return text
  }
}
