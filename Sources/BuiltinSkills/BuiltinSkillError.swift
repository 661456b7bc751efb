/// Why a built-in skill could not do what was asked.
public enum BuiltinSkillError: Error, Equatable, CustomStringConvertible, Sendable {
  /// The data directory or a store file could not be read or written.
  case storage(String)

  public var description: String {
    switch self {
    case .storage(let message): message
    }
  }
}
