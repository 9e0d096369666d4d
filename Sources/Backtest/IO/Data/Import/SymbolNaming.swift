import BacktestAnalysis
import BacktestCore
import Foundation

/// How an import names what it stores: each file's symbol (its name's stem, the symbol given,
/// a symbol column's or a wide header's) renamed when a rename names it, then with the prefix
/// before it and the suffix after it: `--symbol-suffix .Y` stores `AAPL` as `AAPL.Y`, so a
/// second source of a stored ticker can sit beside the first instead of replacing it.
struct SymbolNaming {
    var prefix: String
    var suffix: String
    var renames: [String: String]

    /// - Throws: `InputError` (setting `.symbolPrefix`, `.symbolSuffix`) for text that cannot
    ///   start or end a symbol (see `Symbol`).
    init(_ options: ImportOptions) throws {
        prefix = try Self.checked(options.symbolPrefix, setting: .symbolPrefix)
        suffix = try Self.checked(options.symbolSuffix, setting: .symbolSuffix)
        renames = options.renames
    }

    /// `files` with their symbols as stored.
    /// - Throws: `InputError` when a symbol becomes too long, when a rename names no symbol of
    ///   the import (a misspelt FROM would otherwise do nothing), or when two symbols of the
    ///   import would be stored as one.
    func named(_ files: [ImportedFile]) throws -> [ImportedFile] {
        guard !prefix.isEmpty || !suffix.isEmpty || !renames.isEmpty else { return files }
        var out = files
        var sources: [String: String] = [:]
        for k in out.indices {
            let source = out[k].symbol
            let stored = prefix + (renames[source] ?? source) + suffix
            if let problem = Symbol.problem(stored) {
                throw InputError("\(source) would be stored as \(Excerpt.quoted(stored)): \(problem)",
                                 setting: prefix.isEmpty && suffix.isEmpty ? .rename : prefix.isEmpty ? .symbolSuffix : .symbolPrefix)
            }
            if let other = sources[stored], other != source {
                throw InputError("\(other) and \(source) would both be stored as \(stored)", setting: .rename)
            }
            sources[stored] = source
            out[k].symbol = stored
            if case .candles(var series) = out[k].content {
                series.symbol = stored
                out[k].content = .candles(series)
            }
        }
        let seen = Set(files.map(\.symbol))
        if let unused = renames.keys.sorted().first(where: { !seen.contains($0) }) {
            let symbols = seen.sorted()
            throw InputError("no file of this import holds \(unused) (its symbols: \(symbols.prefix(10).joined(separator: ", "))"
                                 + (symbols.count > 10 ? ", ..." : "") + ")", setting: .rename, value: "\(unused)=\(renames[unused]!)")
        }
        return out
    }

    /// `text` upper-cased, when it can start (a prefix) or end (a suffix) a symbol: letters,
    /// digits and the symbol punctuation, a prefix starting with a letter, a digit or `^`, at
    /// most 31 characters.
    static func checked(_ text: String, setting: Setting) throws -> String {
        guard !text.isEmpty else { return "" }
        let prefix = setting == .symbolPrefix
        if text.unicodeScalars.count >= Symbol.maximumLength {
            throw InputError("is \(text.unicodeScalars.count) characters long: no room for a symbol within \(Symbol.maximumLength)",
                             setting: setting, value: text)
        }
        // The text as the start of a symbol, or after a letter: the symbol's own check.
        if let problem = Symbol.problem(prefix ? text + "A" : "A" + text) {
            let what = problem.replacingOccurrences(of: "the symbol ", with: "")
                .replacingOccurrences(of: #" at position \d+"#, with: "", options: .regularExpression)
            throw InputError("cannot \(prefix ? "start" : "end") a symbol: it \(what); \(Symbol.rule)", setting: setting, value: text)
        }
        return text.uppercased()
    }
}

extension ImportOptions {
    /// `FROM=TO` pairs, each side a symbol (upper-cased), each FROM once.
    /// - Throws: `InputError` (setting `.rename`) naming the pair.
    package static func renames(parsing pairs: [String]) throws -> [String: String] {
        var out: [String: String] = [:]
        for pair in pairs {
            let sides = pair.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
            guard sides.count == 2 else {
                throw InputError("is not FROM=TO (the symbol in the file, then the symbol to store it as; a symbol holding '=', "
                                     + "such as ES=F, cannot be renamed: use a prefix or a suffix)", setting: .rename, value: pair)
            }
            for side in sides {
                if let problem = Symbol.problem(side) {
                    throw InputError("\(Excerpt.quoted(side)): \(problem); \(Symbol.rule)", setting: .rename, value: pair)
                }
            }
            let from = sides[0].uppercased(), to = sides[1].uppercased()
            if out[from] != nil { throw InputError("renames \(from) twice", setting: .rename, value: pair) }
            out[from] = to
        }
        return out
    }
}
