/// Function names for intent ids, both ways: tool names allow `[A-Za-z0-9_-]` only, no dots.
public struct ToolNames: Sendable, Equatable {
  private var functionByID: [String: String] = [:]
  private var idByFunction: [String: String] = [:]

  /// Longest function name the chat-completions API accepts.
  public static let maximumLength = 64

  /// Names every id in `ids`, keeping names unique (`timer.start` → `timer_start`).
  public init(ids: [String]) {
    for id in ids {
      let base = Self.sanitized(id)
      var name = base
      var suffix = 2
      while idByFunction[name] != nil {
        let tail = "_\(suffix)"
        name = String(base.prefix(Self.maximumLength - tail.count)) + tail
        suffix += 1
      }
      functionByID[id] = name
      idByFunction[name] = id
    }
  }

  /// The function name for an intent id.
  public func functionName(for id: String) -> String {
    functionByID[id] ?? Self.sanitized(id)
  }

  /// The intent id for a function name; a name it did not hand out comes back unchanged, so
  /// that validation rejects it as an unknown intent.
  public func intentID(forFunction name: String) -> String {
    idByFunction[name] ?? name
  }

  private static func sanitized(_ id: String) -> String {
    let scalars = id.unicodeScalars.map { scalar -> Unicode.Scalar in
      let allowed =
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
      return allowed ? scalar : "_"
    }
    let name = String(String.UnicodeScalarView(scalars.prefix(maximumLength)))
    return name.isEmpty ? "intent" : name
  }
}
