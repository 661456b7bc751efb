import Foundation
import TestSupport
import Testing

/// `intent` copied on its own into another folder, as an installation does.
struct InstalledCopyTests {
  /// Runs `binary` with `arguments` from `folder`, returning exit status and standard output.
  static func run(_ binary: URL, _ arguments: [String], in folder: URL) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["INTENT_DATA_DIR"] = folder.appendingPathComponent("data").path
    environment["TZ"] = "Asia/Shanghai"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func copiedBinaryParsesAndChecksFromAnotherFolder() throws {
    let built = try #require(BuiltProducts.executable(named: "intent"), "build 'intent' first")
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let copy = folder.url.appendingPathComponent("bin/intent")
    try FileManager.default.createDirectory(
      at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: built, to: copy)

    // The copy must not fall back on the build folder's resource bundle: it names none.
    let bytes = try Data(contentsOf: copy)
    #expect(bytes.range(of: Data("BuiltinGrammars.resources".utf8)) == nil)
    #expect(bytes.range(of: Data("SkillRouter_BuiltinGrammars".utf8)) == nil)

    let (parseStatus, parsed) = try Self.run(
      copy, ["parse", "--json", "--now", "2026-11-30T09:00:00+08:00", "三分钟后提醒我"], in: folder.url)
    #expect(parseStatus == 0)
    let object = try JSONSerialization.jsonObject(with: Data(parsed.utf8)) as? [String: Any]
    #expect(object?["intent"] as? String == "timer.start")
    #expect((object?["slots"] as? [String: Any])?["duration"] as? Double == 180)

    let (checkStatus, checked) = try Self.run(copy, ["check", "--quiet"], in: folder.url)
    #expect(checkStatus == 0)
    #expect(checked.contains(" 0 failed"))
  }
}
