import Backtest
import Foundation

/// The built-in strategies and the strategy files of a directory, and how a name finds one.
public struct StrategyLibrary: Sendable {
    /// Where strategy files are looked for.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The `.bt` files of the directory, sorted by name; none when it does not exist.
    public var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix("." + StrategyFile.fileExtension) && !$0.hasPrefix(".") }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }

    /// Every file strategy, or why its file could not be read, in file order.
    public func fileStrategies() -> [(path: String, strategy: Result<Strategy, Error>)] {
        files.map { path in (path, Result { try Strategy.load(file: path) }) }
    }

    /// The strategy `text` names:
    /// 1. a path (it contains `/`, or ends in `.bt`: then in the working directory, else in the
    ///    strategies directory): that file;
    /// 2. a built-in strategy's name (built-ins come first: run a file of the same name by its path);
    /// 3. `<directory>/<text>.bt`;
    /// 4. a file of the directory whose `name` is `text`.
    /// - Throws: `InputError` listing the built-in and file strategies (with a suggestion), or
    ///   the error of the file found.
    public func strategy(named text: String) throws -> Strategy {
        if text.contains("/") {
            return try Strategy.load(file: text)
        }
        if text.hasSuffix("." + StrategyFile.fileExtension) {
            // `x.bt`: in the working directory, else in the strategies directory.
            let inDirectory = (directory as NSString).appendingPathComponent(text)
            let found = FileManager.default.fileExists(atPath: text) || !FileManager.default.fileExists(atPath: inDirectory)
            return try Strategy.load(file: found ? text : inDirectory)
        }
        if let s = Strategy.all.first(where: { $0.name == text }) { return s }
        let path = (directory as NSString).appendingPathComponent(text + "." + StrategyFile.fileExtension)
        if FileManager.default.fileExists(atPath: path) { return try Strategy.load(file: path) }
        let loaded = fileStrategies().compactMap { try? $0.strategy.get() }
        if let s = loaded.first(where: { $0.name == text }) { return s }
        let builtIn = Strategy.all.map(\.name)
        let fromFiles = loaded.map(\.name)
        let hint = Suggest.closest(to: text, among: builtIn + fromFiles).map { "; did you mean '\($0)'?" } ?? ""
        let files = fromFiles.isEmpty ? "no strategy files in \(directory)" : "files in \(directory): \(fromFiles.joined(separator: ", "))"
        throw InputError("unknown strategy '\(text)'\(hint) (built-in: \(builtIn.joined(separator: ", ")); \(files))")
    }
}
