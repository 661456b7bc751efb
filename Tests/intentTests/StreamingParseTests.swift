import Foundation
import IntentEngine
import Testing

/// `intent parse --jsonl` answers each line as it arrives, through a real pipe.
struct StreamingParseTests {
  /// The built `intent` beside the test bundle.
  static var executable: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("intent")
  }

  /// Reads from `handle` up to and including the next line feed.
  static func readLine(_ handle: FileHandle) -> String? {
    var bytes = Data()
    while true {
      guard let byte = try? handle.read(upToCount: 1), let first = byte.first else {
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
      }
      if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(first)
    }
  }

  @Test func eachLineIsAnsweredBeforeTheNextIsWritten() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = [
      "parse", "--jsonl", "--now", "2026-11-30T09:00:00+08:00", "--time-zone", "Asia/Shanghai",
    ]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    for (text, intent) in [
      ("set a timer for 10 minutes", "timer.start"), ("明天杭州会下雨吗", "weather.query"),
      ("ok, remind me at 5pm to b", nil),
    ] {
      // The pipe stays open: an answer that waited for the end of input would never come.
      input.fileHandleForWriting.write(Data((text + "\n").utf8))
      let line = try #require(Self.readLine(output.fileHandleForReading))
      let object = try JSONValue(parsing: Data(line.utf8))
      #expect(object["text"]?.stringValue == text)
      if let intent { #expect(object["intent"]?.stringValue == intent) }
    }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(Self.readLine(output.fileHandleForReading) == nil)
  }
}
