import Foundation
import Skills
import TestSupport
import Testing

struct StorageTests {
  @Test func atomicWriteReplacesTheFileAndLeavesNoTemporaryFiles() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("nested/store.json")
    try AtomicFile.write(Data("one".utf8), to: url)
    try AtomicFile.write(Data("two".utf8), to: url)
    #expect(try String(contentsOf: url, encoding: .utf8) == "two")
    let names = try FileManager.default.contentsOfDirectory(
      atPath: url.deletingLastPathComponent().path)
    #expect(names == ["store.json"])
  }

  @Test(arguments: [
    (["INTENT_DATA_DIR": "/data/x", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/data/x"),
    (["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/xdg/skillrouter"),
    (["XDG_DATA_HOME": "relative", "HOME": "/home/u"], "/home/u/.local/share/skillrouter"),
    (["INTENT_DATA_DIR": "", "HOME": "/home/u"], "/home/u/.local/share/skillrouter"),
  ])
  func resolvesTheDataDirectoryFromTheEnvironment(environment: [String: String], expected: String) {
    #if !canImport(Darwin)
      #expect(DataDirectory.url(environment: environment).path == expected)
    #endif
  }
}
