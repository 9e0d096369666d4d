import Backtest

/// Finds the command named by the leading arguments and runs it.
enum Dispatcher {
    static func run(_ args: [String]) throws {
        let commands = CommandRegistry.all
        guard let first = args.first else {
            Output.write(Help.overview(commands))
            return
        }
        switch first {
        case "--help", "-h":
            Output.write(Help.overview(commands))
            return
        case "--version":
            Output.line("bt \(btVersion)")
            return
        case "help":
            let rest = Array(args.dropFirst())
            if rest.isEmpty { Output.write(Help.overview(commands)); return }
            if rest.first == "--markdown" {
                guard rest.count == 1 else { throw UsageError("'bt help --markdown' takes no other argument") }
                Output.write(Help.markdown(commands))
                return
            }
            if rest.count == 1, let topic = Help.topics.first(where: { $0.name == rest[0] }) {
                Output.write(try topic.text())
                return
            }
            if rest.count == 1, !commands.contains(where: { $0.name.split(separator: " ").first.map(String.init) == rest[0] }),
               let near = Suggest.closest(to: rest[0], among: Help.topics.map(\.name)) {
                throw UsageError("unknown help topic '\(rest[0])'; did you mean '\(near)'?")
            }
            let (command, _) = try resolve(rest, in: commands)
            Output.write(Help.command(command))
            return
        default:
            break
        }
        let (command, rest) = try resolve(args, in: commands)
        var parsed = try ArgumentParser.parse(rest, for: command)
        if parsed.flag(.help) {
            Output.write(Help.command(command))
            return
        }
        parsed.commandLine = ["bt"] + args
        try command.run(parsed)
        warnAboutUnread(parsed)
    }

    /// After a command succeeded: one warning per option the user gave that it never read (an
    /// option that does nothing on this command line, such as `--width` with `--json`). Not an error.
    static func warnAboutUnread(_ parsed: ParsedArguments) {
        let unread = parsed.unread
        guard !unread.isEmpty else { return }
        Output.flush()  // warnings after the command's output in a combined log
        for option in unread { Diagnostics.line("warning: \(option) has no effect with this command line") }
    }

    /// The command whose path is the longest prefix of `args`.
    static func resolve(_ args: [String], in commands: [Command]) throws -> (Command, [String]) {
        let match = commands
            .filter { args.count >= $0.path.count && Array(args.prefix($0.path.count)) == $0.path }
            .max { $0.path.count < $1.path.count }
        if let match { return (match, Array(args.dropFirst(match.path.count))) }
        // A group name alone (`bt data`) or a misspelt sub-command.
        let groups = Set(commands.filter { $0.path.count > 1 }.map { $0.path[0] })
        if groups.contains(args[0]) {
            let subs = commands.filter { $0.path[0] == args[0] }.map { $0.path[1] }
            if args.count > 1 && !args[1].hasPrefix("-") {
                let hint = Suggest.closest(to: args[1], among: subs).map { "; did you mean '\(args[0]) \($0)'?" } ?? ""
                throw UsageError("unknown command '\(args[0]) \(args[1])'\(hint) (one of: \(subs.joined(separator: ", ")))")
            }
            throw UsageError("'\(args[0])' needs a sub-command: \(subs.joined(separator: ", "))")
        }
        let names = Set(commands.map { $0.path[0] }).sorted()
        let hint = Suggest.closest(to: args[0], among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw UsageError("unknown command '\(args[0])'\(hint)")
    }
}
