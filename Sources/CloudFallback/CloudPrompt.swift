/// The prompt that asks a chat model to classify one utterance into one of the declared intents.
public struct CloudPrompt: Sendable {
  /// One intent the model may choose, with its description and slots.
  public struct IntentChoice: Sendable, Equatable {
    /// The intent id, such as `timer.start`.
    public var id: String
    /// What the intent does, for the model.
    public var description: String
    /// Slot names with their types, such as `duration: duration (seconds)`.
    public var slots: [String]

    /// Creates a choice.
    public init(id: String, description: String, slots: [String]) {
      self.id = id
      self.description = description
      self.slots = slots
    }
  }

  /// The intents the model may choose from.
  public var choices: [IntentChoice]

  /// Creates a prompt over `choices`.
  public init(choices: [IntentChoice]) {
    self.choices = choices
  }

  /// The system message: the intents, the output shape, and the rule to answer JSON only.
  public var system: String {
    var text = """
      You route a user's command to one of these intents. Reply with one JSON object only, \
      no explanation, no Markdown, no comments:
      {"intent": "<intent id or null>", "slots": {<slot name>: <value>}, "confidence": <0 to 1>}
      Durations are numbers of seconds; datetimes are ISO 8601 with offset; text is the user's words.
      If no intent fits, reply {"intent": null}.

      Intents:

      """
    for choice in choices {
      let slots =
        choice.slots.isEmpty ? "" : " Slots: " + choice.slots.joined(separator: ", ") + "."
      text += "- \(choice.id): \(choice.description).\(slots)\n"
    }
    return text
  }
}
