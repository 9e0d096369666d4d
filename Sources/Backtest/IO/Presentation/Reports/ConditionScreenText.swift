import BacktestAnalysis
import BacktestCore
import BacktestData

/// The terminal text of a condition screen: the headline, the matches' table, the symbols that
/// could not be checked, and where the files went.
package enum ConditionScreenText {
    /// - Parameter directory: the folder `screen.csv` and `screen.md` were written to, if any.
    package static func render(_ report: ConditionScreenReport, directory: String?) -> String {
        var out = report.headline + "\n"
        let table = report.matchTable
        if table.count > 1 { out += "\n" + TextTable.render(table, rightAligned: Set(3..<table[0].count)) }
        if !report.errors.isEmpty {
            out += "\nCould not be checked:\n"
            for row in report.errors { out += "  \(row.symbol): \(row.error ?? "")\n" }
        }
        out += SeriesNote.text(report.seriesNotes)
        if let directory { out += "\nWrote \(directory)/screen.csv and screen.md\n" }
        return out
    }
}

extension ConditionScreenReport {
    /// Writes `screen.csv` and `screen.md` into `staged`, then puts it in place.
    package func write(to staged: StagedDirectory) throws {
        try staged.write(csv(), to: "screen.csv")
        try staged.write(markdown(), to: "screen.md")
        try staged.commit()
    }
}
