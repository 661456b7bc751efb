import Foundation

let code = await IntentCommand.run(Array(CommandLine.arguments.dropFirst()), io: .process)
exit(code)
