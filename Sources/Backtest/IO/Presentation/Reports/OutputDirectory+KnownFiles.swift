import BacktestData

/// The output directories of reports, sweeps and screens: `OutputDirectory`'s checks with the
/// names of the files they write, the only files a replaced directory may hold.
extension OutputDirectory {
    /// Every file name bt writes into an output directory (reports, sweeps, screens, sweep
    /// summaries); a directory holding only these (and folders of them) may be replaced.
    public static let knownFiles: Set<String> = Set(Report.files).union(PortfolioReport.files).union(ReplayReport.files).union([
        "sweep.csv", "sweep.md", "heatmap.svg", "walk_forward.csv", "walk_forward_equity.svg", "cv_splits.csv",
        "screen.csv", "screen.md", "summary.md", "summary.csv",
    ])

    /// Throws unless `path` can take output: it does not exist, or it is a directory of bt
    /// output (`knownFiles`) and `force` is true. Call it before a long run so a refusal costs
    /// nothing.
    /// - Parameter what: the noun in the message ("report directory", "output directory").
    /// - Throws: `InputError` naming the directory: of kind `.outputExists` when it exists and
    ///   `force` is false; of setting `.output` for an empty path, a file, or a directory holding
    ///   files bt did not write.
    public static func check(_ path: String, force: Bool, what: String = "output directory") throws {
        try check(path, force: force, what: what, knownFiles: knownFiles)
    }

    /// Checks `path` as `check` does, then starts writing it: the returned staging folder takes
    /// the files, and `commit()` puts it in place.
    public static func stage(_ path: String, force: Bool, what: String = "output directory") throws -> StagedDirectory {
        try stage(path, force: force, what: what, knownFiles: knownFiles)
    }

    /// Checks `path` as `check` does, then creates it (and its parents), for outputs written in
    /// place (temporary benchmark folders, folders inside a staging folder).
    /// - Throws: `InputError` when it is refused or cannot be created.
    public static func prepare(_ path: String, force: Bool, what: String = "output directory") throws {
        try prepare(path, force: force, what: what, knownFiles: knownFiles)
    }
}
