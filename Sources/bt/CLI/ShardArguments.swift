import Backtest

/// The option words of a shard's stored command line (`PartialManifest.arguments`): what tells
/// one run from another, how one shard is rerun, and the command line of the merged run.
enum ShardArguments {
    /// The library's view of these words, for `PartialSet`.
    static let commandLine = ShardCommandLine(identifying: { identifying($0) }, rerun: { rerun($0, shard: $1) })

    /// `arguments` without the options that differ between the shards of one run and do not
    /// change what it computes: `--shard`, `--shards`, `--out`, `--force`.
    static func identifying(_ arguments: [String]) -> [String] {
        CommandWords.removing(["shard", "shards", "out", "force"], valued: ["shard", "shards", "out"], from: arguments)
    }

    /// The shard's command line with `--shard` (and `--shards`) set to `shard`.
    static func rerun(_ arguments: [String], shard: Shard) -> [String] {
        var args = CommandWords.removing(["shard", "shards"], valued: ["shard", "shards"], from: arguments)
        let insert = args.firstIndex(of: "--") ?? args.endIndex
        args.insert(contentsOf: ["--shard", shard.description], at: insert)
        return args
    }

    /// The shards' command line as one process would have been given it: without `--shard` and
    /// `--shards`, and `--out` set to `out` (where it was, in the form it had).
    static func merged(_ arguments: [String], out: String) -> [String] {
        var args = CommandWords.removing(["shard", "shards"], valued: ["shard", "shards"], from: arguments)
        var i = 0
        while i < args.count {
            if args[i] == "--" { break }
            if args[i] == "--out", i + 1 < args.count { args[i + 1] = out; i += 2; continue }
            if args[i].hasPrefix("--out=") { args[i] = "--out=" + out }
            i += 1
        }
        return args
    }
}
