/// The words of a command line as typed, for the commands that store or rebuild one (a shard's
/// manifest, a live session's journal and replay command, `bt slurm`'s shards): text surgery that
/// is no parsing, so it lives in the library and the command line keeps its option tables.
package enum CommandWords {
    /// `arguments` without the options named in `names` (and the values of those in `valued`),
    /// in both forms `--name value` and `--name=value`; words after `--` are kept.
    package static func removing(_ names: Set<String>, valued: Set<String>, from arguments: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        var positionalOnly = false
        while i < arguments.count {
            let word = arguments[i]
            i += 1
            if positionalOnly || !word.hasPrefix("--") || word == "--" {
                if word == "--" { positionalOnly = true }
                out.append(word)
                continue
            }
            let body = word.dropFirst(2)
            let name = String(body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
            if names.contains(name) {
                if valued.contains(name) && !body.contains("=") { i += 1 }
                continue
            }
            out.append(word)
        }
        return out
    }
}
