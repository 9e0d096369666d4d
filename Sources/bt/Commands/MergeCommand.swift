import Backtest
import Foundation

extension Command {
    static let merge = Command(
        path: ["merge"],
        help: EmbeddedAssets.mergeTXT,
        positionals: [PositionalSpec(name: "DIR", help: "A shard's partial-result folder, or a folder of them", variadic: true)],
        options: [
            .out.withHelp("Where the merged report goes (required)"),
            .force.withHelp("Replace an existing --out directory"),
        ]
    ) { args in
        guard let out = args.value(.out) else { throw UsageError("\(Option.out) DIR is required", command: "merge") }
        let set = try PartialSet(try PartialFolder.find(in: args.positionals), commandLine: ShardArguments.commandLine)
        let arguments = ShardArguments.merged(set.manifest.arguments, out: out)
        let command: Command
        switch set.manifest.command {
        case "screen": command = .screen
        case "sweep": command = .sweep
        default: throw InputError("the partial results are of 'bt \(set.manifest.command)', which bt merge does not know")
        }
        guard arguments.first == command.path[0] else {
            throw InputError("the partial results' command line does not start with '\(command.path[0])'", at: set.parts[0].path)
        }
        var parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command)
        parsed.commandLine = ["bt"] + arguments
        parsed.databaseOverride = args.value(.db)
        let source = RowSource.merge(set, force: args.flag(.force))
        if command.path == Command.sweep.path {
            try SweepCommand.execute(parsed, source: source)
        } else {
            try ScreenCommand.execute(parsed, source: source)
        }
    }
}
