import BacktestCore
import BacktestData

/// How a screen's series notes are shown: terminal lines, markdown sections, JSON members.
extension SeriesNote {
    /// The notes as terminal lines under a heading each ("Skipped:" / "Resampled:"), every
    /// group after a blank line; empty without notes.
    public static func text(_ notes: [SeriesNote]) -> String {
        groups(notes).map { kind, some in
            "\n" + heading(kind) + ":\n" + some.map { "  \($0.series): \($0.reason)\n" }.joined()
        }.joined()
    }

    /// The notes as markdown sections (`## Skipped ...`, `## Resampled ...`); empty without notes.
    public static func markdown(_ notes: [SeriesNote]) -> String {
        groups(notes).map { kind, some in
            "\n## " + heading(kind) + "\n\n| series | why |\n|---|---|\n"
                + some.map { "| \(Markdown.cell($0.series)) | \(Markdown.cell($0.reason)) |\n" }.joined()
        }.joined()
    }

    /// The notes as JSON object members `skipped` and `resampled` (`[{"series", "reason"}]`),
    /// each only when it has notes.
    public static func json(_ notes: [SeriesNote]) -> [(key: String, value: JSONValue)] {
        groups(notes).map { kind, some in
            (key: kind.rawValue, value: .array(some.map { ["series": .string($0.series), "reason": .string($0.reason)] }))
        }
    }

    /// The notes by kind, skipped first, each kind only when it has notes: the order and the
    /// groups every rendering (terminal, markdown, JSON, report.html) shows.
    static func groups(_ notes: [SeriesNote]) -> [(kind: Kind, notes: [SeriesNote])] {
        [Kind.skipped, .resampled].compactMap { kind in
            let some = notes.filter { $0.kind == kind }
            return some.isEmpty ? nil : (kind, some)
        }
    }

    static func heading(_ kind: Kind) -> String {
        kind == .skipped ? "Skipped (not screened)" : "Resampled (screened from finer bars)"
    }
}
