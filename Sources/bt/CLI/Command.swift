import Foundation
import Backtest

/// A positional argument of a command.
struct PositionalSpec: Sendable {
    let name: String
    let help: String
    var optional = false
    var variadic = false
}

/// A command: its name path (`["data", "import"]`), help text, option table, and action.
struct Command: Sendable {
    let path: [String]
    let summary: String
    var discussion: String = ""
    var positionals: [PositionalSpec] = []
    var options: [Option] = []
    let run: @Sendable (ParsedArguments) throws -> Void

    var name: String { path.joined(separator: " ") }

    /// Every option the command accepts, its own plus the global ones.
    var allOptions: [Option] { options + CommonOptions.global }

    func accepts(_ option: Option) -> Bool { allOptions.contains(option) }
}
