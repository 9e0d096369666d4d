import BacktestCore

extension InputError {
    /// The fixes worded for a command line, each setting called `name(setting)` (a flag):
    /// ` (PURPOSE, use --flag VALUE: COMMAND; ...)`, where COMMAND is `commandLine` (the words
    /// typed, the program first) with the flag and its value in place of any it had (and of
    /// the symbol, which a symbol column and a wide layout replace), quoted for a shell. Without
    /// a command line, the option alone. Empty when there are no fixes.
    package func fixText(naming name: (Setting) -> String, commandLine: [String]?) -> String {
        guard !fixes.isEmpty else { return "" }
        return " (" + fixes.map { fix in
            let words = [name(fix.setting)] + (fix.value.map { [$0] } ?? [])
            let use = "\(fix.purpose), use " + RunManifest.shellCommand(words)
            guard let commandLine else { return use }
            var dropped = [(words[0], fix.value != nil)]
            if fix.setting == .symbolColumn || fix.setting == .layout { dropped.append((name(.symbol), true)) }
            return use + ": " + RunManifest.shellCommand(Self.removing(dropped, from: commandLine) + words)
        }.joined(separator: "; ") + ")"
    }

    /// `words` without the options `dropped` (each with whether a value follows it), written
    /// `--name value` or `--name=value`.
    static func removing(_ dropped: [(flag: String, valued: Bool)], from words: [String]) -> [String] {
        var out: [String] = []
        var k = 0
        while k < words.count {
            if let option = dropped.first(where: { $0.flag == words[k] }) {
                k += option.valued ? 2 : 1
                continue
            }
            if !dropped.contains(where: { words[k].hasPrefix($0.flag + "=") }) { out.append(words[k]) }
            k += 1
        }
        return out
    }
}
