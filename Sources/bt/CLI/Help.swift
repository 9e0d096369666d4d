import Foundation
import Backtest

/// Help text rendered from the command table.
enum Help {
    /// The topics of `bt help TOPIC`, generated from the tables the checkers use.
    static let topics: [(name: String, summary: String, text: @Sendable () throws -> String)] = [
        ("expressions", "The rule language: series, operators, every function with its defaults and an example",
         { try ExpressionReference.text() }),
        ("exits", "Entry orders and exits: --sl, --tp, --trail, --entry-limit, ... and their strategy-file keys",
         { try OrderReference.exitsText() }),
        ("strategy-file", "The strategy file format: sections, keys, an example", { OrderReference.strategyFileText() }),
    ]

    static func overview(_ commands: [Command]) -> String {
        var s = "bt \(btVersion): backtesting and screening research tool\n\n"
        s += "USAGE: bt <command> [options]\n\nCOMMANDS:\n"
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        for c in commands {
            s += "  " + c.name.padding(toLength: width, withPad: " ", startingAt: 0) + c.summary + "\n"
        }
        s += "\nGLOBAL OPTIONS:\n  --db PATH      SQLite store (default $BT_DB or data/bt.sqlite)\n  --help         Show help\n  --version      Show the version\n"
        s += "\nTOPICS:\n" + topics.map { "  " + $0.name.padding(toLength: 15, withPad: " ", startingAt: 0) + $0.summary + "\n" }.joined()
        s += "\n'bt help --markdown' prints every command's help as markdown (docs/reference/commands.md).\n"
        s += "What bt does not do yet, each with the nearest way in bt today: docs/guide/limits.md.\n"
        s += "\nSee 'bt help <command>' for details.\n"
        return s
    }

    static func command(_ c: Command) -> String {
        var s = "\(c.summary)\n\nUSAGE: \(usage(c))\n"
        if !c.discussion.isEmpty { s += "\n\(c.discussion)\n" }
        if !c.positionals.isEmpty {
            s += "\nARGUMENTS:\n"
            for p in c.positionals { s += "  " + p.name.padding(toLength: 22, withPad: " ", startingAt: 0) + p.help + "\n" }
        }
        s += "\nOPTIONS:\n"
        for o in c.allOptions {
            let left = o.synopsis
            if left.count >= 22 {
                s += "  \(left)\n" + String(repeating: " ", count: 24) + o.helpText + "\n"
            } else {
                s += "  " + left.padding(toLength: 22, withPad: " ", startingAt: 0) + o.helpText + "\n"
            }
        }
        s += "\nSee 'bt help <command>' for details.\n"
        return s
    }

    /// Every command's help as one markdown document, the committed `docs/reference/commands.md`:
    /// the same usage lines, discussions, arguments and option tables as `bt help COMMAND`, in
    /// registry order. Nothing in it depends on the version, the terminal or the environment, so
    /// the file changes only when a table does.
    static func markdown(_ commands: [Command]) -> String {
        var s = "# bt commands\n\n"
        s += "Generated from bt's command and option tables by `bt help --markdown`; do not edit by hand.\n"
        s += "Regenerate with `swift run bt help --markdown > docs/reference/commands.md`.\n"
        s += "Every command also takes `--db PATH` and `--help`; `bt --version` prints the version.\n\n"
        s += "| command | what it does |\n|---|---|\n"
        for c in commands {
            s += "| [`bt \(c.name)`](#\(anchor(c))) | \(Markdown.cell(c.summary)) |\n"
        }
        for c in commands {
            s += "\n## bt \(c.name)\n\n\(Markdown.cell(c.summary))\n\n"
            s += Markdown.fenced(usage(c))
            if !c.discussion.isEmpty { s += "\n" + Markdown.fenced(c.discussion) }
            if !c.positionals.isEmpty {
                s += "\n| argument | meaning |\n|---|---|\n"
                for p in c.positionals {
                    var name = p.variadic ? "\(p.name)..." : p.name
                    if p.optional { name = "[\(name)]" }
                    s += "| `\(name)` | \(Markdown.cell(p.help)) |\n"
                }
            }
            s += "\n| option | meaning |\n|---|---|\n"
            for o in c.allOptions {
                s += "| `\(o.synopsis.replacingOccurrences(of: "|", with: "\\|"))` | \(Markdown.cell(o.helpText)) |\n"
            }
        }
        return s
    }

    /// `bt NAME ARGS [options]`: the usage line of `command(_:)` and `markdown(_:)`.
    private static func usage(_ c: Command) -> String {
        var usage = "bt \(c.name)"
        for p in c.positionals {
            let n = p.variadic ? "\(p.name)..." : p.name
            usage += p.optional ? " [\(n)]" : " \(n)"
        }
        if !c.options.isEmpty { usage += " [options]" }
        return usage
    }

    /// GitHub's anchor of the heading `## bt NAME`: lower case, spaces as hyphens.
    private static func anchor(_ c: Command) -> String {
        ("bt " + c.name).lowercased().replacingOccurrences(of: " ", with: "-")
    }
}
