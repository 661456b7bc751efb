import SkillRouter
import Testing

struct RedactorTests {
  @Test(arguments: [
    ("key is sk-abcdefghijklmnop here", "key is [redacted] here"),
    ("Authorization: Bearer abc.def", "Authorization: [redacted]"),
    (#"{"api_key": "k-123456789"}"#, #"{"api_key": "[redacted]"}"#),
    ("got bearer xyz123 back", "got Bearer [redacted] back"),
    ("MY-SECRET-VALUE leaked", "[redacted] leaked"),
  ])
  func hidesSecrets(text: String, expected: String) {
    #expect(Redactor(secrets: ["MY-SECRET-VALUE"]).redact(text) == expected)
  }
}
