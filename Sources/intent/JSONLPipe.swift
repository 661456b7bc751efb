import Foundation
import IntentEngine

/// `intent parse --jsonl`: answers a stream of lines in input order, each block as it arrives.
///
/// Input is read in large blocks, but a block is whatever the pipe holds, so a line that trickles
/// in alone is answered at once; each block's answers go out in one write. With more than one
/// job, a block's lines are shared among tasks and their outputs joined back in order.
struct JSONLPipe: Sendable {
  let engine: Engine
  let context: ParseContext
  let includeExplanation: Bool
  let jobs: Int

  /// How many distinct `now` and `tz` readings one run of lines remembers.
  static let cachedReadings = 256

  /// The fewest lines per task worth parallel work; smaller blocks are answered in one task.
  static let linesPerTask = 64

  /// Reads standard input to its end, writing one JSON object per line.
  func run(io: CommandIO) async {
    var splitter = LineSplitter()
    let nextChunk = io.inputChunks()
    while let chunk = nextChunk() {
      let lines = splitter.rawLines(in: Array(chunk))
      for part in await answers(to: lines) where !part.isEmpty { io.write(bytes: part) }
    }
    if let last = splitter.finishRaw() { io.write(bytes: answers(to: [last][...])) }
  }

  /// The output for `lines` in input order, as one part per task; reading each line's request
  /// happens in the tasks too, so only splitting and writing stay sequential.
  func answers(to lines: [LineSplitter.RawLine]) async -> [[UInt8]] {
    let tasks = min(jobs, lines.count / Self.linesPerTask)
    guard tasks > 1 else { return [answers(to: lines[...])] }
    let size = (lines.count + tasks - 1) / tasks
    return await withTaskGroup(of: (Int, [UInt8]).self) { group in
      for task in 0..<tasks {
        let chunk = lines[min(task * size, lines.count)..<min((task + 1) * size, lines.count)]
        group.addTask { (task, answers(to: chunk)) }
      }
      var parts = [[UInt8]](repeating: [], count: tasks)
      for await (task, bytes) in group { parts[task] = bytes }
      return parts
    }
  }

  /// The output lines for a run of lines, answered one after another.
  func answers(to lines: ArraySlice<LineSplitter.RawLine>) -> [UInt8] {
    var writer = JSONByteWriter(capacity: lines.count * (includeExplanation ? 1_024 : 320))
    var dates: [String: Date?] = [:]
    var zones: [String: TimeZone?] = [:]
    func date(_ text: String) -> Date? {
      if let known = dates[text] { return known }
      let read = EngineOptions.date(fromISO8601: text)
      if dates.count < Self.cachedReadings { dates[text] = read }
      return read
    }
    func zone(_ name: String) -> TimeZone? {
      if let known = zones[name] { return known }
      let read = TimeZone(identifier: name)
      if zones.count < Self.cachedReadings { zones[name] = read }
      return read
    }
    for raw in lines {
      switch ParseCommand.request(for: raw.line, defaultContext: context, date: date, zone: zone) {
      case .success(let (text, lineContext)):
        engine.parse(text, context: lineContext).writeJSON(
          to: &writer, includeExplanation: includeExplanation)
      case .failure(let error):
        writer.value(error.value)
      }
      writer.byte(0x0A)
    }
    return writer.bytes
  }
}

/// Cuts a stream of byte blocks into numbered lines; a partial last line waits for more input.
struct LineSplitter {
  /// One input line's bytes, without its line break, read into a request only when needed.
  struct RawLine: Sendable {
    var number: Int
    var bytes: ArraySlice<UInt8>

    /// The line with its request read.
    var line: JSONLines.Line {
      let trimmed = bytes.last == 0x0D ? bytes.dropLast() : bytes
      return JSONLines.Line(number: number, request: LineSplitter.request(from: trimmed))
    }
  }

  private var pending: [UInt8] = []
  private var count = 0

  /// The complete lines that `block` ends, after any partial line carried from before.
  mutating func rawLines(in block: [UInt8]) -> [RawLine] {
    var lines: [RawLine] = []
    var start = block.startIndex
    while let newline = block[start...].firstIndex(of: 0x0A) {
      count += 1
      if pending.isEmpty {
        lines.append(RawLine(number: count, bytes: block[start..<newline]))
      } else {
        pending += block[start..<newline]
        lines.append(RawLine(number: count, bytes: pending[...]))
        pending = []
      }
      start = newline + 1
    }
    pending += block[start...]
    return lines
  }

  /// The last line when the input did not end with a newline.
  mutating func finishRaw() -> RawLine? {
    guard !pending.isEmpty else { return nil }
    defer { pending = [] }
    count += 1
    return RawLine(number: count, bytes: pending[...])
  }

  /// The complete lines that `block` ends, read into requests.
  mutating func lines(in block: [UInt8]) -> [JSONLines.Line] {
    rawLines(in: block).map(\.line)
  }

  /// The last line, read into a request, when the input did not end with a newline.
  mutating func finish() -> JSONLines.Line? {
    finishRaw()?.line
  }

  /// The request on one line: an object line is scanned for its fields when it is plain enough,
  /// otherwise read by the full parser, which also words every error.
  static func request(from bytes: ArraySlice<UInt8>) -> Result<
    JSONLines.Request, JSONLines.LineError
  > {
    let first = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 }
    if let first, bytes[first] == UInt8(ascii: "{"),
      String(validating: bytes, as: UTF8.self) != nil,
      let fields = JSONLineScanner.fields(in: bytes[first...])
    {
      return .success(
        JSONLines.Request(text: fields.text, now: fields.now, timeZone: fields.timeZone))
    }
    return JSONLines.request(from: bytes)
  }
}
