import Foundation
import Backtest

/// One command-line option: the table row that drives both parsing and help.
struct OptionSpec: Sendable {
    enum Kind: Sendable { case flag, value, repeated }
    let name: String
    let kind: Kind
    let valueName: String
    let help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, valueName: "", help: help)
    }
    static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .value, valueName: valueName, help: help)
    }
    static func repeated(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .repeated, valueName: valueName, help: help)
    }
}

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
    var options: [OptionSpec] = []
    let run: @Sendable (ParsedArguments) throws -> Void

    var name: String { path.joined(separator: " ") }

    /// Every option the command accepts, its own plus the global ones.
    var allOptions: [OptionSpec] { options + CommonOptions.global }
}

/// The result of parsing a command line against a command's option table.
struct ParsedArguments {
    let command: Command
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    /// The full command line as typed, for report manifests.
    var commandLine: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func values(_ name: String) -> [String] { values[name] ?? [] }

    func positional(_ i: Int) -> String? { i < positionals.count ? positionals[i] : nil }

    /// The required positional `i`, or a usage error naming it.
    func required(_ i: Int) throws -> String {
        guard let v = positional(i) else {
            let name = i < command.positionals.count ? command.positionals[i].name : "argument"
            throw UsageError("missing \(name)", command: command.name)
        }
        return v
    }

    func int(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let v = Int(text.replacingOccurrences(of: "_", with: "")) else {
            throw UsageError("--\(name): '\(text)' is not a whole number", command: command.name)
        }
        return v
    }

    func double(_ name: String) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let v = Double(text), v.isFinite else {
            throw UsageError("--\(name): '\(text)' is not a number", command: command.name)
        }
        return v
    }
}

/// A usage mistake: unknown command or option, missing or malformed argument. Exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    let command: String?
    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
    var description: String {
        let hint = command.map { "See 'bt help \($0)'." } ?? "See 'bt --help'."
        return "\(message)\n\(hint)"
    }
}

enum ArgumentParser {
    /// Parses `args` (after the command path) for `command`. Accepts `--name value`,
    /// `--name=value` and `--` to end options.
    static func parse(_ args: [String], for command: Command) throws -> ParsedArguments {
        var result = ParsedArguments(command: command)
        let table = Dictionary(command.allOptions.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("--") || arg == "-" {
                if arg.hasPrefix("-") && arg.count > 1 && !onlyPositionals && Double(arg) == nil {
                    if arg == "-h" { result.flags.insert("help"); continue }
                    throw UsageError("unknown option '\(arg)'", command: command.name)
                }
                result.positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = table[name] else {
                let suggestion = Suggest.closest(to: name, among: table.keys.sorted())
                throw UsageError(
                    "unknown option '--\(name)'" + (suggestion.map { "; did you mean '--\($0)'?" } ?? ""),
                    command: command.name)
            }
            switch spec.kind {
            case .flag:
                if inline != nil { throw UsageError("--\(name) takes no value", command: command.name) }
                result.flags.insert(name)
            case .value, .repeated:
                let v: String
                if let inline { v = inline } else {
                    guard i < args.count else {
                        throw UsageError("--\(name) needs a value (\(spec.valueName))", command: command.name)
                    }
                    v = args[i]
                    i += 1
                }
                if spec.kind == .value, result.values[name] != nil {
                    throw UsageError("--\(name) given twice", command: command.name)
                }
                result.values[name, default: []].append(v)
            }
        }
        if result.flag("help") { return result }
        let maxPositionals = command.positionals.contains(where: \.variadic) ? Int.max : command.positionals.count
        if result.positionals.count > maxPositionals {
            throw UsageError("unexpected argument '\(result.positionals[command.positionals.count])'", command: command.name)
        }
        let required = command.positionals.filter { !$0.optional }.count
        if result.positionals.count < required {
            throw UsageError("missing \(command.positionals[result.positionals.count].name)", command: command.name)
        }
        return result
    }
}
