import BacktestAnalysis
import BacktestCore
import BacktestData
import BacktestPresentation
import Foundation

/// `sweep.csv` as a sweep writes it: the rows streamed as they come (in combination order), so
/// memory stays flat; with objectives, their values kept (a few numbers per combination) and,
/// once every row is in, the `pareto` column added (the front needs every row).
final class SweepCSVFile {
    private let file: StreamingFile
    private let directory: String
    private let grid: ParameterGrid
    private let combos: [Int]
    private var front: ParetoFront?

    /// Creates `sweep.csv` in `directory` with its header; `objectives`: two or more for a
    /// Pareto front, else none.
    init(in directory: String, grid: ParameterGrid, combos: [Int], objectives: [Stat]) throws {
        self.directory = directory
        self.grid = grid
        self.combos = combos
        front = objectives.isEmpty ? nil : try ParetoFront(objectives: objectives, combinations: combos.count)
        file = try StreamingFile("sweep.csv", in: directory)
        try file.write(SweepReport.csvHeader(grid))
    }

    /// Writes a chunk of rows (the next in combination order).
    func write(_ rows: [Sweep.Row]) throws {
        try file.write(SweepReport.csvRows(rows, grid: grid, combos: combos))
        front?.add(rows)
    }

    /// Closes the file; with objectives, computes the front and rewrites the file with its
    /// `pareto` column (read back whole: the rows were not kept).
    /// - Returns: the front, nil without objectives.
    func finish() throws -> ParetoFront? {
        try file.close()
        guard var front else { return nil }
        front.finish()
        guard let written = FileManager.default.contents(atPath: file.path) else {
            throw InternalError("\(file.path): cannot read back")
        }
        try OutputDirectory.write(SweepReport.csvAddingParetoColumn([UInt8](written), members: front.members),
                                  to: "sweep.csv", in: directory)
        return front
    }
}
