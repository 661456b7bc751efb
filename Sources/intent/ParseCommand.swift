import Foundation
import IntentEngine

/// `intent parse`: classifies text and prints the result as text, JSON or JSON lines.
enum ParseCommand {
  static let usage = """
    Usage: intent parse [--json | --jsonl] [--now <ISO 8601>] [--time-zone <zone>]
                        [--grammars <dir>]… [--no-builtin] [<text>]

      <text>           the utterance; read from standard input when omitted
      --json           print one JSON object
      --jsonl          read one utterance per input line (raw text or {"text": …}) and print
                       one JSON object per line, in order
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
      arguments, flags: EngineOptions.flags.union(["--json", "--jsonl"]),
      options: EngineOptions.options)
    if parsed.has("--json"), parsed.has("--jsonl") {
      throw UsageError(message: "'--json' and '--jsonl' cannot be used together")
    }
    if parsed.has("--jsonl"), !parsed.positional.isEmpty {
      throw UsageError(message: "'--jsonl' reads standard input; remove the text argument")
    }
    let options = try EngineOptions(parsed, io: io)
    guard let engine = options.loadEngine(io: io) else { return 1 }

    if parsed.has("--jsonl") {
      // Each line is answered once it has been read; answers to the lines of one chunk go out
      // together, and the block is written before waiting for more input.
      var reader = JSONLines.Reader()
      let nextChunk = io.inputChunks()
      var block = ""
      func answer(_ line: JSONLines.Line) {
        block += jsonlResult(for: line, engine: engine, defaultContext: options.context).jsonText
        block += "\n"
        if block.utf8.count >= JSONLines.blockSize {
          io.write(block)
          block = ""
        }
      }
      while let chunk = nextChunk() {
        reader.append(chunk, to: answer)
        if !block.isEmpty {
          io.write(block)
          block = ""
        }
      }
      reader.finish(to: answer)
      if !block.isEmpty { io.write(block) }
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
    switch line.request {
    case .failure(let error):
      return .object([
        ("line", .number(Double(line.number))), ("text", .null), ("error", .string(error.message)),
      ])
    case .success(let request):
      var context = defaultContext
      if let now = request.now {
        guard let date = EngineOptions.date(fromISO8601: now) else {
          return .object([
            ("line", .number(Double(line.number))), ("text", .string(request.text)),
            ("error", .string("'now' is not an ISO 8601 time: '\(now)'")),
          ])
        }
        context.now = date
      }
      if let zone = request.timeZone {
        guard let named = TimeZone(identifier: zone) else {
          return .object([
            ("line", .number(Double(line.number))), ("text", .string(request.text)),
            ("error", .string("unknown time zone '\(zone)'")),
          ])
        }
        context.timeZone = named
      }
      return engine.parse(request.text, context: context).json()
    }
  }
}

/// Splits JSON-lines input into requests, turning unreadable lines into messages, not failures.
enum JSONLines {
  /// One utterance to parse, with an optional clock and zone of its own.
  struct Request {
    var text: String
    var now: String?
    var timeZone: String?
    /// The whole object, when the line was JSON (fixtures carry expectations in it).
    var object: JSONValue?
  }

  /// One input line and what could be read from it.
  struct Line {
    var number: Int
    var request: Result<Request, LineError>
  }

  /// Why a line could not be read.
  struct LineError: Error {
    var message: String
  }

  /// The most output held back while more input is already waiting.
  static let blockSize = 64 << 10

  /// Splits input that arrives in chunks into lines, holding only the unfinished one.
  struct Reader {
    private var pending = Data()
    private var number = 0

    /// Hands every line `chunk` completes to `body`, in order.
    mutating func append(_ chunk: Data, to body: (Line) -> Void) {
      var start = chunk.startIndex
      while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
        var bytes = pending
        bytes.append(chunk[start..<newline])
        pending = Data()
        start = chunk.index(after: newline)
        emit(bytes, to: body)
      }
      pending.append(chunk[start...])
    }

    /// Hands the last line, when input did not end with a line break, to `body`.
    mutating func finish(to body: (Line) -> Void) {
      guard !pending.isEmpty else { return }
      let bytes = pending
      pending = Data()
      emit(bytes, to: body)
    }

    private mutating func emit(_ line: Data, to body: (Line) -> Void) {
      var bytes = line
      if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
      number += 1
      body(Line(number: number, request: JSONLines.request(from: bytes)))
    }
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

  static func request(from bytes: Data) -> Result<Request, LineError> {
    guard let text = String(data: bytes, encoding: .utf8) else {
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
