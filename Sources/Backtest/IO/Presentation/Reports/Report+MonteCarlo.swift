import BacktestAnalysis
import BacktestCore

/// A run's Monte Carlo (`Report.monteCarlo`) as `--json`, the terminal and `report.md` show it.
extension Report {
    /// `{"resamples", "seed", "ruin", "block_length", "trades", "bars"}`: `trades` and `bars`
    /// each `{"final_equity", "max_drawdown", "cagr"}` as `{"p5", "p50", "p95"}` (cash,
    /// fractions; drawdowns negative) and `"ruin_probability"`, or null when the run had no
    /// trades (fewer than 3 bars).
    var monteCarloJSON: JSONValue? {
        guard let mc = monteCarlo else { return nil }
        func percentiles(_ p: MonteCarlo.Percentiles) -> JSONValue {
            ["p5": .number(p.p5), "p50": .number(p.p50), "p95": .number(p.p95)]
        }
        func distribution(_ d: MonteCarlo.Distribution?) -> JSONValue {
            guard let d else { return .null }
            return ["final_equity": percentiles(d.finalEquity), "max_drawdown": percentiles(d.maxDrawdown),
                    "cagr": percentiles(d.cagr), "ruin_probability": .number(d.ruinProbability)]
        }
        return ["resamples": .int(mc.settings.resamples), "seed": .int(Int(mc.settings.seed)), "ruin": .number(mc.settings.ruin),
                "block_length": .number(mc.blockLength), "trades": distribution(mc.trades), "bars": distribution(mc.bars)]
    }

    /// The table: per resampling and figure, the 5th, 50th and 95th percentiles, then the
    /// ruin probability; nil without a Monte Carlo.
    var monteCarloRows: [[String]]? {
        guard let mc = monteCarlo else { return nil }
        var rows = [["Monte Carlo", "5th", "50th", "95th"]]
        for (name, d) in [("trades", mc.trades), ("bars", mc.bars)] {
            guard let d else {
                rows.append(["\(name): " + (name == "trades" ? "no trades" : "too few bars"), "", "", ""])
                continue
            }
            rows.append(["\(name): final equity"] + [d.finalEquity.p5, d.finalEquity.p50, d.finalEquity.p95].map { Format.fixed($0, 2) })
            rows.append(["\(name): max drawdown"] + [d.maxDrawdown.p5, d.maxDrawdown.p50, d.maxDrawdown.p95].map { Format.percent($0) })
            rows.append(["\(name): CAGR"] + [d.cagr.p5, d.cagr.p50, d.cagr.p95].map { Format.percent($0) })
            rows.append(["\(name): P(drawdown >= \(Format.percent(mc.settings.ruin)))", Format.percent(d.ruinProbability), "", ""])
        }
        return rows
    }

    /// What the resamples were, under the table.
    var monteCarloNote: String? {
        guard let mc = monteCarlo else { return nil }
        return "\(mc.settings.resamples) resamples (seed \(mc.settings.seed)) of the \(result.trades.count) trades, drawn with "
            + "replacement as returns on equity, and of the bar returns by the stationary block bootstrap (mean block "
            + "\(Format.fixed(mc.blockLength, 0)) bars, as the Sharpe interval's)."
    }

    /// The equity chart's bands (`chart.equity.monte_carlo` of report.html): the bar resamples'
    /// equity percentiles (`MonteCarlo.Bands`) at their checkpoints' times, and the legend's
    /// words for what was resampled; nil without a Monte Carlo or with fewer than 3 bars.
    var monteCarloBandsJSON: JSONValue? {
        guard let mc = monteCarlo, let b = mc.bands else { return nil }
        let time = result.candles.time
        return ["time": .array(b.bars.map { .int(Int(time[$0])) }),
                "p5": PageData.numbers(b.p5), "p50": PageData.numbers(b.p50), "p95": PageData.numbers(b.p95),
                "label": .string("Monte Carlo 5-95% (bootstrap of bar returns)"), "median_label": .string("Monte Carlo median"),
                "note": .string(monteCarloBandsNote ?? "")]
    }

    /// What the equity chart's bands are, in the page's subtitle.
    var monteCarloBandsNote: String? {
        guard let mc = monteCarlo, let b = mc.bands else { return nil }
        let of = b.resamples == mc.settings.resamples ? "\(b.resamples)" : "the first \(b.resamples) of \(mc.settings.resamples)"
        return "equity bands: 5th, 50th and 95th percentiles of \(of) stationary-bootstrap resamples of the bar returns "
            + "(mean block \(Format.fixed(mc.blockLength, 0)) bars, seed \(mc.settings.seed))"
    }

    /// `chart` with the bands added to its `equity` object (unchanged without them).
    func addingMonteCarloBands(to chart: JSONValue) -> JSONValue {
        guard let bands = monteCarloBandsJSON, case .object(var members) = chart,
              let k = members.firstIndex(where: { $0.key == "equity" }), case .object(var equity) = members[k].value else { return chart }
        equity.append((key: "monte_carlo", value: bands))
        members[k].value = .object(equity)
        return .object(members)
    }

    /// The `report.md` section; empty without a Monte Carlo.
    var monteCarloMarkdown: String {
        guard let rows = monteCarloRows, let note = monteCarloNote else { return "" }
        return "\n## Monte Carlo\n\n| " + rows[0].joined(separator: " | ") + " |\n|---|---:|---:|---:|\n"
            + rows.dropFirst().map { "| " + $0.joined(separator: " | ") + " |\n" }.joined() + "\n" + note + "\n"
    }
}
