/// Which deciders the router may use, from `--route` or `INTENT_ROUTE`.
public enum RouteMode: String, Sendable, CaseIterable {
  /// Local when confident, else the cloud when configured, else the offline guess.
  case auto
  /// Never the cloud: air-gapped use.
  case local
  /// Always the cloud, for debugging prompts; falls back like `auto` when it fails.
  case cloud

  /// The usage message for a value that is not a mode.
  public static func invalidValueMessage(_ value: String, source: String) -> String {
    "\(source) must be 'auto', 'local' or 'cloud', not '\(value)'"
  }
}
