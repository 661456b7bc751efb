/// How the model is asked to shape its answer; servers support different subsets.
public enum AnswerShape: String, Sendable, CaseIterable {
  /// `response_format: {"type": "json_object"}`: any JSON object, shape given in the prompt.
  case jsonObject = "json_object"
  /// `response_format` `json_schema`, with the skill ids as an `enum` the server enforces.
  case jsonSchema = "json_schema"
  /// One function per skill (`tools`), the arguments being the skill's input.
  case tools
}
