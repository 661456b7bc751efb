import IntentEngine

/// A usage mistake on the command line; the command prints it with its usage and exits 2.
struct UsageError: Error, Equatable {
  var message: String
}

/// Parsed command-line arguments: flags, options with values, and positional words.
struct Arguments {
  private(set) var flags: Set<String> = []
  private(set) var options: [String: [String]] = [:]
  private(set) var positional: [String] = []

  /// Parses `arguments` given the flags and value-taking options a command accepts.
  ///
  /// `--name=value` and `--name value` are both accepted; `--` ends option parsing.
  init(_ arguments: [String], flags knownFlags: Set<String>, options knownOptions: Set<String>)
    throws(UsageError)
  {
    var index = 0
    var onlyPositional = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
        positional.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositional = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      if knownFlags.contains(name) {
        if let inlineValue {
          throw UsageError(
            message:
              "option '\(name)' takes no value; write '\(name)', not '\(name)=\(inlineValue)'")
        }
        flags.insert(name)
      } else if knownOptions.contains(name) {
        if let inlineValue {
          options[name, default: []].append(inlineValue)
        } else if index < arguments.count {
          options[name, default: []].append(arguments[index])
          index += 1
        } else {
          throw UsageError(message: "option '\(name)' needs a value")
        }
      } else {
        let known = Array(knownFlags) + Array(knownOptions)
        if let suggestion = Self.suggestion(for: name, among: known) {
          throw UsageError(message: "unknown option '\(name)'; did you mean '\(suggestion)'?")
        }
        throw UsageError(message: "unknown option '\(name)'")
      }
    }
  }

  /// Whether a flag was given.
  func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// The last value of an option.
  func value(_ option: String) -> String? { options[option]?.last }

  /// Every value of a repeatable option, in order.
  func values(_ option: String) -> [String] { options[option] ?? [] }

  static func suggestion(for name: String, among candidates: [String]) -> String? {
    Spelling.suggestion(for: name, among: candidates.sorted())
  }
}
