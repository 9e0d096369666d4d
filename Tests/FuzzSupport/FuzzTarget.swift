import Backtest
import Foundation

/// One fuzz target: a function from arbitrary bytes to nothing, which must return for every
/// input (a crash, a hang or a failed check is a finding), plus the files it starts from.
///
/// The same targets run in two harnesses: libFuzzer (`Fuzz/`, `make fuzz`), which mutates with
/// coverage feedback under AddressSanitizer, and `FuzzRegressionTests` in the test suite, which
/// replays the seeds, every committed regression input and a fixed number of seeded mutations.
///
/// To fuzz a new parser (as `expression`, `strategy-file` and `signals` do for the strategy
/// language's):
///
/// 1. add a target to `FuzzTargets.all`:
///
///        public static let newParser = FuzzTarget.parser("new-parser") { bytes in
///            _ = try NewParser.parse(String(decoding: bytes, as: UTF8.self))
///        }
///
/// 2. list seed files in `Fuzz/seeds.txt` (`new-parser Tests/Fixtures/fuzz/seeds/new-parser.txt`);
/// 3. create its regression folder `Tests/Fixtures/fuzz/new-parser/` (a `.gitkeep` until an input
///    that once failed is committed there).
///
/// `make fuzz` (one libFuzzer program, `BT_FUZZ_TARGET=new-parser`) and the test suite then run
/// it like the others.
public struct FuzzTarget: Sendable {
    public let name: String
    /// Runs one input; returns normally or stops the process with `fatalError` (a finding).
    public let run: @Sendable (UnsafeBufferPointer<UInt8>) -> Void

    public init(name: String, run: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) {
        self.name = name
        self.run = run
    }

    /// A target for any parser: `parse` may return or throw an `InputError` (bad input, said
    /// clearly); any other error, and an error message longer than `longestMessage` of the
    /// input's size (by default `Check.longestMessage`: messages quote at most 80 characters of
    /// the input), is a finding. Checks on what was parsed go inside `parse`.
    public static func parser(_ name: String, longestMessage: @escaping @Sendable (Int) -> Int = { _ in Check.longestMessage },
                              parse: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws -> Void) -> FuzzTarget {
        FuzzTarget(name: name) { bytes in
            do {
                try parse(bytes)
            } catch let e as InputError {
                Check.message(e, longest: longestMessage(bytes.count))
            } catch {
                Check.fail("\(name): not an InputError: \(type(of: error)): \(error)")
            }
        }
    }

    /// The seed files listed for this target in `Fuzz/seeds.txt`, repository-relative.
    public var seeds: [String] {
        get throws {
            let manifest = FuzzTargets.root.appendingPathComponent("Fuzz/seeds.txt")
            guard let data = FileManager.default.contents(atPath: manifest.path) else {
                throw FuzzSetupError("missing \(manifest.path)")
            }
            return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ")
                return parts.count == 2 && parts[0] == name ? String(parts[1]) : nil
            }
        }
    }

    /// The seed files' bytes (each cut to `maximumLength`), for harnesses that start from memory.
    public func seedInputs(maximumLength: Int = 4096) throws -> [[UInt8]] {
        let seeds = try self.seeds
        guard !seeds.isEmpty else { throw FuzzSetupError("no seeds for \(name) in Fuzz/seeds.txt") }
        return try seeds.map { path in
            let url = FuzzTargets.root.appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw FuzzSetupError("missing fuzz seed \(url.path)")
            }
            return Array([UInt8](data).prefix(maximumLength))
        }
    }

    /// Inputs that once made this target fail, committed in `Tests/Fixtures/fuzz/<name>/`
    /// (hidden files such as `.gitkeep` aside).
    /// - Throws: `FuzzSetupError` when the folder is missing or a file cannot be read: a moved or
    ///   misnamed folder must not read as "no regressions".
    public func regressionInputs() throws -> [(name: String, bytes: [UInt8])] {
        let dir = FuzzTargets.root.appendingPathComponent("Tests/Fixtures/fuzz/\(name)")
        let files: [String]
        do { files = try FileManager.default.contentsOfDirectory(atPath: dir.path) } catch {
            throw FuzzSetupError("missing regression folder \(dir.path) of fuzz target \(name)")
        }
        return try files.filter { !$0.hasPrefix(".") }.sorted().map { file in
            guard let data = FileManager.default.contents(atPath: dir.appendingPathComponent(file).path) else {
                throw FuzzSetupError("unreadable regression input \(dir.path)/\(file)")
            }
            return (file, [UInt8](data))
        }
    }
}

/// A seed or regression file that is not where the fuzz targets expect it.
public struct FuzzSetupError: Error, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
}

/// Checks shared by the targets. A failed check ends the process with a message, which both
/// libFuzzer and the test suite report as a finding.
public enum Check {
    /// Longest acceptable error message: messages quote at most about 80 characters of input.
    public static let longestMessage = 1500

    public static func fail(_ message: String) -> Never {
        fatalError("fuzz check failed: " + message)
    }

    public static func that(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    /// An input error's text is bounded and names its reason.
    static func message(_ e: InputError, longest: Int = longestMessage) {
        let text = e.description
        that(!e.reason.isEmpty, "empty error reason")
        that(text.unicodeScalars.count <= longest,
             "error message of \(text.unicodeScalars.count) characters: \(text.prefix(200))...")
    }
}
