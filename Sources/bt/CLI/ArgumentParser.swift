import Foundation
import Backtest

/// The result of parsing a command line against a command's option table, queried by `Option`
/// constant (`args.value(.cash)`, `args.flag(.json)`). Every query records the option as read, so
/// that options the user gave but the command never read can be reported (`unread`).
struct ParsedArguments: Sendable {
    let command: Command
    var positionals: [String] = []
    /// The values of value and repeated options by name, in the order given.
    fileprivate var values: [String: [String]] = [:]
    fileprivate var flags: Set<String> = []
    /// The options given, each once, in the order first given.
    fileprivate(set) var given: [Option] = []
    /// The full command line as typed, for report manifests.
    var commandLine: [String] = []
    /// The store to read instead of the one the options name (`bt merge --db` over the shards'
    /// command line).
    var databaseOverride: String?
    /// The names of the options read so far, shared by every copy: commands hand `args` to
    /// helpers and to parallel jobs.
    private let reads = Locked(Set<String>())

    init(command: Command) { self.command = command }

    func flag(_ option: Option) -> Bool {
        record(option, as: .flag)
        return flags.contains(option.name)
    }

    func value(_ option: Option) -> String? {
        record(option, as: .value)
        return values[option.name]?.last
    }

    func values(_ option: Option) -> [String] {
        record(option, as: .repeated)
        return values[option.name] ?? []
    }

    /// The values given for `option`, without counting it as read (checks across options).
    func peek(_ option: Option) -> [String] { values[option.name] ?? [] }

    /// Counts `options`, read but of no effect on this command line, as unread again, so the
    /// user hears that they did nothing (the synthetic book's knobs with `--depth none`).
    func unread(_ options: [Option]) {
        reads.withLock { read in options.forEach { read.remove($0.name) } }
    }

    func int(_ option: Option) throws -> Int? {
        guard let text = value(option) else { return nil }
        guard let v = Int(text.replacingOccurrences(of: "_", with: "")) else {
            throw UsageError("\(option): '\(text)' is not a whole number", command: command.name)
        }
        return v
    }

    func double(_ option: Option) throws -> Double? {
        guard let text = value(option) else { return nil }
        guard let v = Double(text), v.isFinite else {
            throw UsageError("\(option): '\(text)' is not a number", command: command.name)
        }
        return v
    }

    /// The given options among `options` as command-line words (`--fee-bps 5`, `--short`), in
    /// the order given; repeated options once per value. For commands that suggest another command.
    func words(for options: [Option]) -> [String] {
        given.filter { options.contains($0) }.flatMap { option -> [String] in
            record(option, as: option.kind)
            switch option.kind {
            case .flag: return ["--\(option.name)"]
            case .value, .repeated: return (values[option.name] ?? []).flatMap { ["--\(option.name)", $0] }
            }
        }
    }

    /// The options the user gave that nothing has read so far, in the order given.
    var unread: [Option] {
        let read = reads.withLock { $0 }
        return given.filter { !read.contains($0.name) }
    }

    /// Asking for an option the command does not declare, or as the wrong kind, is a bug in bt.
    private func record(_ option: Option, as kind: Option.Kind) {
        assert(command.accepts(option), "bt \(command.name) reads \(option) but does not declare it")
        assert(option.kind == kind, "\(option) is read as \(kind) but declared as \(option.kind)")
        reads.withLock { _ = $0.insert(option.name) }
    }

    func positional(_ i: Int) -> String? { i < positionals.count ? positionals[i] : nil }

    /// The required positional `i`, or a usage error naming it.
    func required(_ i: Int) throws -> String {
        guard let v = positional(i) else {
            let name = i < command.positionals.count ? command.positionals[i].name : "argument"
            throw UsageError("missing \(name)", command: command.name)
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
        func note(_ option: Option) {
            if !result.given.contains(option) { result.given.append(option) }
        }
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("--") || arg == "-" {
                if arg.hasPrefix("-") && arg.count > 1 && !onlyPositionals && Double(arg) == nil {
                    if arg == "-h" { result.flags.insert(Option.help.name); note(.help); continue }
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
            guard let option = table[name] else {
                if let foreign = ForeignSpelling.hint(name, value: inline ?? (i < args.count ? args[i] : nil)),
                   table[Option.flagName(foreign.setting)] != nil {
                    throw UsageError("unknown option '--\(name)'; \(Setting.worded(foreign.text, naming: ErrorMessage.flags))",
                                     command: command.name)
                }
                let suggestion = Suggest.closest(to: name, among: table.keys.sorted())
                throw UsageError(
                    "unknown option '--\(name)'" + (suggestion.map { "; did you mean '--\($0)'?" } ?? ""),
                    command: command.name)
            }
            switch option.kind {
            case .flag:
                if inline != nil { throw UsageError("\(option) takes no value", command: command.name) }
                result.flags.insert(name)
            case .value, .repeated:
                let v: String
                if let inline { v = inline } else {
                    guard i < args.count else {
                        throw UsageError("\(option) needs a value (\(option.valueName))", command: command.name)
                    }
                    v = args[i]
                    i += 1
                }
                if option.kind == .value, result.values[name] != nil {
                    throw UsageError("\(option) given twice", command: command.name)
                }
                result.values[name, default: []].append(v)
            }
            note(option)
        }
        if result.flag(.help) { return result }
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
