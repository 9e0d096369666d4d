import BacktestAnalysis
import BacktestCore
import BacktestData
import BacktestPresentation
import Foundation

extension SweepPlan {
    /// Sweeps each of `symbols` into its own sub-folder of `directory` (`FileName.sanitized`);
    /// a symbol that fails is recorded and never stops the rest. A sweep that throws leaves no
    /// sub-folder; one that ran no combination keeps its folder (`sweep.csv` says why).
    /// - Parameters:
    ///   - run: sweeps symbol number `index` into a folder.
    ///   - swept: told of each sweep that returned a report, before it is checked.
    ///   - stops: whether an error stops every symbol (it is rethrown, its folder kept).
    ///   - failed: told of a symbol's error; returns the error to record.
    ///   - done: told after each symbol.
    package func runSymbols(_ symbols: [String], directory: String,
                            run: (_ symbol: String, _ index: Int, _ directory: String) throws -> SweepReport,
                            swept: (_ symbol: String, _ report: SweepReport) -> Void,
                            stops: (Error) -> Bool, failed: (_ symbol: String, _ error: Error) -> Error,
                            done: () -> Void) throws -> [(symbol: String, outcome: Result<SweepReport, Error>)] {
        var outcomes: [(symbol: String, outcome: Result<SweepReport, Error>)] = []
        for (index, symbol) in symbols.enumerated() {
            let dir = (directory as NSString).appendingPathComponent(FileName.sanitized(symbol))
            do {
                let report = try run(symbol, index, dir)
                swept(symbol, report)
                do {
                    try SweepPlan.requireSomeRan(report)
                    outcomes.append((symbol, .success(report)))
                } catch {
                    outcomes.append((symbol, .failure(failed(symbol, error))))
                }
            } catch let error where stops(error) {
                throw error
            } catch {
                try? FileManager.default.removeItem(atPath: dir)
                outcomes.append((symbol, .failure(failed(symbol, error))))
            }
            done()
        }
        return outcomes
    }
}

extension SweepSymbolsSummary {
    /// Records the timeframe each of `symbols` was swept at: the one its name or `requested`
    /// gives, else its only stored series'.
    package mutating func recordTimeframes(of symbols: [String], requested: Timeframe?, stored: [CandleStore.SeriesInfo]) {
        for symbol in symbols {
            let (name, named) = (try? SeriesName.resolve(symbol, timeframe: requested, stored: stored)) ?? (symbol, nil)
            let series = stored.filter { $0.symbol == name }
            if let tf = named?.rawValue ?? (series.count == 1 ? series[0].timeframe : nil) { timeframes[symbol] = tf }
        }
    }

    /// Writes `summary.md` and `summary.csv` into `directory`.
    package func write(into directory: String) throws {
        try OutputDirectory.write(markdown(), to: "summary.md", in: directory)
        try OutputDirectory.write(csv(), to: "summary.csv", in: directory)
    }

    /// Whether no symbol could be swept.
    package var allFailed: Bool {
        outcomes.allSatisfy { if case .failure = $0.outcome { return true } else { return false } }
    }
}

extension ParameterGrid {
    /// The swept names of `specs` with their first values (a range's start), for a rule strategy to declare as
    /// parameters; none when `specs` do not parse (`SweepPlan` reports why).
    package static func firstValues(parsing specs: [String]) -> [(name: String, first: Double)] {
        (try? SearchSpace(parsing: specs))?.axes.filter { ExecutionConfig.sweptSettings[$0.name] == nil }.map { axis in
            switch axis.domain {
            case .values(let v): (axis.name, v.first ?? 0)
            case .integers(let lower, _): (axis.name, Double(lower))
            case .reals(let lower, _): (axis.name, lower)
            }
        } ?? []
    }
}
