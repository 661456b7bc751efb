public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes that readers never see half-done, and a safe place for files that cannot be read.
public enum AtomicFile {
  /// Writes `data` to a temporary file beside `url`, then renames it over `url`.
  ///
  /// Creates the parent folder when needed. A crash leaves either the old or the new file.
  /// - Throws: ``SkillError/failed(_:)`` naming the path when the folder or file cannot be written.
  public static func write(_ data: Data, to url: URL) throws(SkillError) {
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).\(UUID().uuidString).p\(getpid()).tmp")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try data.write(to: temporary)
    } catch {
      throw .failed("cannot write '\(temporary.path)'; check that the folder is writable")
    }
    guard rename(temporary.path, url.path) == 0 else {
      try? FileManager.default.removeItem(at: temporary)
      throw .failed("cannot replace '\(url.path)'; check that the folder is writable")
    }
  }

  /// The pid of the process that wrote a temporary file named by ``write(_:to:)``, when the name
  /// records one (`.<name>.<uuid>.p<pid>.tmp`); older names (`.<name>.<uuid>.tmp`) do not.
  public static func writerPID(ofTemporaryNamed name: String) -> Int32? {
    guard name.hasSuffix(".tmp") else { return nil }
    let parts = name.dropLast(4).split(separator: ".")
    guard let last = parts.last, last.hasPrefix("p") else { return nil }
    return Int32(last.dropFirst())
  }

  /// Moves an unreadable file aside, next to where it was, and returns its new location.
  ///
  /// The file keeps its name plus `.corrupt-<time>`, so nothing is lost and a fresh file can take
  /// its place.
  public static func setAside(_ url: URL, at date: Date) throws(SkillError) -> URL {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
    let stamp = formatter.string(from: date).replacingOccurrences(of: ":", with: "")
    var destination = url.deletingLastPathComponent().appendingPathComponent(
      "\(url.lastPathComponent).corrupt-\(stamp)")
    var counter = 1
    while FileManager.default.fileExists(atPath: destination.path) {
      counter += 1
      destination = url.deletingLastPathComponent().appendingPathComponent(
        "\(url.lastPathComponent).corrupt-\(stamp)-\(counter)")
    }
    guard rename(url.path, destination.path) == 0 else {
      throw .failed("cannot move '\(url.path)' aside; check that the folder is writable")
    }
    return destination
  }
}
