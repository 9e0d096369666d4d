import BacktestCore
import BacktestData
import Foundation

/// The files of a report, made on all cores: each reads the same finished run and writes
/// nothing shared, so they are independent jobs (`Parallel.map`). A million-bar run's page,
/// `equity.csv` and price chart take about a second each.
enum ReportFiles {
    /// A file's text, as made: bytes, a `String` (written from its own storage), or pieces
    /// handed to the writer as they are made (a file that grows with the bars).
    enum Content {
        case bytes([UInt8])
        case text(String)
        case pieces((_ append: ([UInt8]) throws -> Void) throws -> Void)
    }

    /// A file's name and how to make its content.
    struct Job {
        var name: String
        var make: () throws -> Content

        init(_ name: String, bytes make: @escaping () throws -> [UInt8]) {
            self.name = name
            self.make = { .bytes(try make()) }
        }

        init(_ name: String, text make: @escaping () throws -> String) {
            self.name = name
            self.make = { .text(try make()) }
        }

        init(_ name: String, pieces make: @escaping (_ append: ([UInt8]) throws -> Void) throws -> Void) {
            self.name = name
            self.make = { .pieces(make) }
        }
    }

    /// Makes the files and writes them into `staged`, each as soon as it is made (so a file's
    /// bytes are not held until the others are done); returns the paths they will have in
    /// `directory` once committed. On failure the staging folder is removed once every job has
    /// stopped, and the first failure in the jobs' order is thrown: nothing was written.
    static func write(_ jobs: [Job], into staged: StagedDirectory, directory: String) throws -> [String] {
        let results = Parallel.map(count: jobs.count) { i in
            switch try jobs[i].make() {
            case .bytes(let bytes): try staged.writeFile(bytes, to: jobs[i].name)
            case .text(let text): try staged.writeFile(text, to: jobs[i].name)
            case .pieces(let make): try staged.writeFile(pieces: make, to: jobs[i].name)
            }
        }
        for result in results {
            do { try result.get() } catch { staged.discard(); throw error }
        }
        return jobs.map { (directory as NSString).appendingPathComponent($0.name) }
    }
}
