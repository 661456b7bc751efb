import Foundation
import IntentEngine

let engine = try Engine.load()
print("loaded \(engine.intents.count) intents")
