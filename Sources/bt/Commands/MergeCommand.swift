import Backtest
import Foundation

extension Command {
    static let merge = Command(
        path: ["merge"],
        summary: "Combine the partial results of a screen or sweep run in shards into its report",
        discussion: """
            Each DIR is a shard's folder (DIR/shard-K-of-N, written by 'bt screen ... --shard K/N
            --out DIR' or 'bt sweep ... --shard K/N --out DIR') or a folder of them. bt merge
            checks that every shard 0..N-1 is there exactly once and that all come from the same
            command line (apart from --shard, --shards, --out and --force), the same bt version,
            the same symbols or combinations and the same data, then writes to --out what the
            command would have written in one process: screen.csv, screen.md, report.html, or
            sweep.csv, sweep.md, report.html, heatmap.svg and the walk-forward files, with the
            same rows, ranks and overfitting figures (CSV byte for byte). The shards' command
            line, with --out as given here, is the report's command line. The store is read
            (read-only) again for what the reports draw: the candles, the best combination's
            returns, the walk-forward trades, the stored curves and the screen's embedded charts;
            --db reads it from another path than the shards' command line names (a copy).
            A missing, duplicated or mismatched shard is an error naming it (exit 2).
            """,
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
