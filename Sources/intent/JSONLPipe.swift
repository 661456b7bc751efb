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
    guard jobs > 1 else {
      while let chunk = nextChunk() {
        let lines = splitter.rawLines(in: Array(chunk))
        if !lines.isEmpty { io.write(bytes: answers(to: lines[...])) }
      }
      if let last = splitter.finishRaw() { io.write(bytes: answers(to: [last][...])) }
      return
    }
    await withTaskGroup(of: (Int, [UInt8]).self) { group in
      var output = OrderedOutput(io: io, limit: jobs * Self.piecesPerJob)
      while let chunk = nextChunk() {
        let lines = splitter.rawLines(in: Array(chunk))
        for piece in pieces(of: lines[...]) { await output.add(piece, to: &group, answers) }
        // Before a read that may wait (a pipe that trickles), what has arrived is answered.
        if io.inputWaiting?() != true { await output.drain(&group) }
      }
      if let last = splitter.finishRaw() { await output.add([last][...], to: &group, answers) }
      await output.drain(&group)
    }
  }

  /// How many pieces per job may be in flight: enough that a piece that takes longer than its
  /// neighbours does not leave a core idle.
  static let piecesPerJob = 4

  /// `lines` cut into pieces small enough to keep every job busy, at least ``linesPerTask``
  /// lines each.
  func pieces(of lines: ArraySlice<LineSplitter.RawLine>) -> [ArraySlice<LineSplitter.RawLine>] {
    let count = max(1, min(jobs * Self.piecesPerJob, lines.count / Self.linesPerTask))
    let size = (lines.count + count - 1) / count
    return stride(from: lines.startIndex, to: lines.endIndex, by: max(1, size)).map {
      lines[$0..<min($0 + size, lines.endIndex)]
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

/// Pieces of input answered in parallel, written back in input order as soon as each piece and
/// every piece before it are done.
///
/// At most `limit` pieces are in flight, so memory stays flat however long the input is.
private struct OrderedOutput {
  let io: CommandIO
  let limit: Int
  private var submitted = 0
  private var written = 0
  private var finished: [Int: [UInt8]] = [:]

  init(io: CommandIO, limit: Int) {
    self.io = io
    self.limit = limit
  }

  /// Starts answering `piece`, first waiting for a piece to finish when `limit` are in flight.
  mutating func add(
    _ piece: ArraySlice<LineSplitter.RawLine>, to group: inout TaskGroup<(Int, [UInt8])>,
    _ answers: @escaping @Sendable (ArraySlice<LineSplitter.RawLine>) -> [UInt8]
  ) async {
    while submitted - written >= limit, await receive(from: &group) {}
    let index = submitted
    submitted += 1
    group.addTask { (index, answers(piece)) }
  }

  /// Waits for every piece in flight and writes them.
  mutating func drain(_ group: inout TaskGroup<(Int, [UInt8])>) async {
    while written < submitted, await receive(from: &group) {}
  }

  /// Waits for one piece, then writes every piece that is next in order; false when none is left.
  private mutating func receive(from group: inout TaskGroup<(Int, [UInt8])>) async -> Bool {
    guard let (index, bytes) = await group.next() else { return false }
    finished[index] = bytes
    while let next = finished.removeValue(forKey: written) {
      if !next.isEmpty { io.write(bytes: next) }
      written += 1
    }
    return true
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
      JSONLineScanner.isValidUTF8(bytes),
      let fields = JSONLineScanner.fields(in: bytes[first...])
    {
      return .success(
        JSONLines.Request(text: fields.text, now: fields.now, timeZone: fields.timeZone))
    }
    return JSONLines.request(from: bytes)
  }
}
