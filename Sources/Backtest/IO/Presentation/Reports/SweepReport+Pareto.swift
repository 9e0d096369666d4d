import BacktestAnalysis
import BacktestCore
import Foundation

/// The Pareto front of a sweep over several objectives: `sweep.csv`'s `pareto` column, the
/// section of `sweep.md` and the scatter of `report.html`.
extension SweepReport {
    /// `csv` (`sweep.csv` as streamed: a header, then one record per combination in order) with
    /// a last column `pareto`, `true` or `false` per record as `members` says (as the other CSVs
    /// write flags). Records end at a line break outside quotes (an error text may hold one).
    public static func csvAddingParetoColumn(_ csv: [UInt8], members: [Bool]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(csv.count + members.count * 6 + 8)
        var quoted = false, record = -1
        for byte in csv {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: "\n") && !quoted {
                precondition(record < members.count, "more records than combinations")
                out += Array((record < 0 ? ",pareto" : members[record] ? ",true" : ",false").utf8)
                record += 1
            }
            out.append(byte)
        }
        precondition(record == members.count, "one record per combination")
        return String(decoding: out, as: UTF8.self)
    }

    /// Front members in the order tables list them: best first by the first objective, then
    /// the next (combination order last).
    var paretoMembersRanked: [Int] {
        guard let p = pareto else { return [] }
        let k = p.objectives.count
        return p.members.indices.filter { p.members[$0] }.sorted { a, b in
            for (j, stat) in p.objectives.enumerated() where p.values[a * k + j] != p.values[b * k + j] {
                return stat.ranks(p.values[a * k + j], before: p.values[b * k + j])
            }
            return a < b
        }
    }

    /// Each objective with its direction, for the texts: `sharpe (higher is better)`.
    var paretoObjectivesText: String {
        (pareto?.objectives ?? []).map { "\($0) (\($0.higherIsBetter ? "higher" : "lower") is better)" }.joined(separator: ", ")
    }

    /// The sentence that says what the front is and how many combinations it holds.
    var paretoSummaryText: String {
        guard let p = pareto else { return "" }
        return "\(p.count) of \(summary.evaluated) combinations are on the Pareto front over \(paretoObjectivesText): "
            + "no other combination is at least as good in every objective and better in one. Equal combinations are all "
            + "on it when none beats them; a combination that failed or has an undefined objective is never on it."
    }

    /// `sweep.md`'s section: the front's size and its members (at most `topShown`), best first
    /// by the first objective.
    var paretoMarkdown: String {
        guard let p = pareto else { return "" }
        let k = p.objectives.count
        var md = "\n## Pareto front\n\n" + paretoSummaryText + " They are marked in the `pareto` column of `sweep.csv`.\n\n"
        let ranked = paretoMembersRanked
        guard !ranked.isEmpty else { return md }
        md += "| # | " + grid.axes.map { Markdown.cell($0.name) }.joined(separator: " | ") + " | "
            + p.objectives.map(\.name).joined(separator: " | ") + " |\n"
        md += "|---:|" + String(repeating: "---:|", count: grid.axes.count + k) + "\n"
        for (n, combo) in ranked.prefix(topShown).enumerated() {
            let values = grid.values(at: combos[combo])
            md += "| \(n + 1) | " + values.map(Self.label).joined(separator: " | ") + " | "
                + p.objectives.enumerated().map { j, stat in stat.formatted(p.values[combo * k + j]) }.joined(separator: " | ") + " |\n"
        }
        if ranked.count > topShown { md += "\n\(ranked.count - topShown) more are in `sweep.csv`.\n" }
        return md
    }

    /// Points the page's scatter draws at most: every front member, and an evenly spaced share
    /// of the others.
    public static let paretoPointLimit = 20_000

    /// The page's scatter of the first two objectives: every combination with both defined
    /// (at most `paretoPointLimit`, the front always), the front's members flagged and labelled.
    var paretoPageData: JSONValue? {
        guard let p = pareto else { return nil }
        let k = p.objectives.count
        let defined = p.members.indices.filter { p.values[$0 * k].isFinite && p.values[$0 * k + 1].isFinite }
        let others = defined.filter { !p.members[$0] }
        let room = max(0, Self.paretoPointLimit - (defined.count - others.count))
        let stride = others.count > room ? Int((Double(others.count) / Double(max(room, 1))).rounded(.up)) : 1
        let shown = defined.filter { p.members[$0] } + others.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
        func axis(_ stat: Stat) -> JSONValue {
            ["name": .string(stat.name), "label": .string(PageData.label(stat)), "unit": .string(PageData.unit(stat.unit)),
             "higher_is_better": .bool(stat.higherIsBetter)]
        }
        var note = paretoSummaryText
        if k > 2 { note += " The chart shows the first two objectives; the front is over all \(k)." }
        if shown.count < defined.count {
            note += " Shown: the \(p.count) on the front and every \(stride)th of the other \(PageData.grouped(others.count))."
        }
        return [
            "x": axis(p.objectives[0]), "y": axis(p.objectives[1]),
            "objectives": .array(p.objectives.map { .string($0.name) }),
            "x_values": PageData.numbers(shown.map { p.values[$0 * k] }),
            "y_values": PageData.numbers(shown.map { p.values[$0 * k + 1] }),
            "front": .array(shown.map { .bool(p.members[$0]) }),
            "labels": .array(shown.map { p.members[$0] ? .string(parameterText($0)) : .null }),
            "front_count": .int(p.count),
            "note": .string(note),
        ]
    }
}
