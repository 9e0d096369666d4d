import Foundation
import Backtest

/// Help text rendered from the command table.
enum Help {
    static func overview(_ commands: [Command]) -> String {
        var s = "bt \(btVersion): backtesting and screening research tool\n\n"
        s += "USAGE: bt <command> [options]\n\nCOMMANDS:\n"
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        for c in commands {
            s += "  " + c.name.padding(toLength: width, withPad: " ", startingAt: 0) + c.summary + "\n"
        }
        s += "\nGLOBAL OPTIONS:\n  --db PATH      SQLite store (default $BT_DB or data/bt.sqlite)\n"
        s += "  --help         Show help\n  --version      Show the version\n"
        s += "\nSee 'bt help <command>' for details.\n"
        return s
    }

    static func command(_ c: Command) -> String {
        var usage = "bt \(c.name)"
        for p in c.positionals {
            let n = p.variadic ? "\(p.name)..." : p.name
            usage += p.optional ? " [\(n)]" : " \(n)"
        }
        if !c.options.isEmpty { usage += " [options]" }
        var s = "\(c.summary)\n\nUSAGE: \(usage)\n"
        if !c.discussion.isEmpty { s += "\n\(c.discussion)\n" }
        if !c.positionals.isEmpty {
            s += "\nARGUMENTS:\n"
            for p in c.positionals { s += "  " + p.name.padding(toLength: 22, withPad: " ", startingAt: 0) + p.help + "\n" }
        }
        s += "\nOPTIONS:\n"
        for o in c.allOptions {
            var left = "--\(o.name)"
            if o.kind != .flag { left += " \(o.valueName)" }
            if o.kind == .repeated { left += " ..." }
            if left.count >= 22 {
                s += "  \(left)\n" + String(repeating: " ", count: 24) + o.helpText + "\n"
            } else {
                s += "  " + left.padding(toLength: 22, withPad: " ", startingAt: 0) + o.helpText + "\n"
            }
        }
        s += "\nSee 'bt help <command>' for details.\n"
        return s
    }
}
