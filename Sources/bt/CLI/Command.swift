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

extension Command {
    /// A command whose summary and discussion come from its help file (`Sources/bt/Help/NAME.txt`,
    /// embedded at build time as `EmbeddedAssets.nameTXT`): the first line is the summary, the
    /// text after the blank line below it the discussion.
    init(path: [String], help: String, positionals: [PositionalSpec] = [], options: [Option] = [],
         run: @escaping @Sendable (ParsedArguments) throws -> Void) {
        let text = help.hasSuffix("\n") ? String(help.dropLast()) : help
        let parts = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        precondition(parts.count != 2 && (parts.count < 3 || parts[1].isEmpty), "bt \(path.joined(separator: " ")): a help file is a summary line, "
                     + "then a blank line and the discussion")
        self.init(path: path, summary: String(parts[0]), discussion: parts.count == 3 ? String(parts[2]) : "",
                  positionals: positionals, options: options, run: run)
    }
}
