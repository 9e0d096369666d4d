import Backtest
import CBTABI
import Foundation

/// `bt_sweep`'s options, named as btcore's keywords (`bt sweep`'s options with underscores).
private let sweepOptions = ["where", "rank", "objective", "objectives", "walk_forward", "pbo_blocks", "top", "timeframe", "search",
                            "trials", "seed"]

@_cdecl("bt_sweep")
public func bt_sweep(_ bars: UnsafePointer<bt_bars>?, _ symbol: UnsafePointer<CChar>?, _ strategy: OpaquePointer?,
                     _ grid: UnsafePointer<UnsafePointer<CChar>?>?, _ ngrid: Int, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
                     _ nparams: Int, _ options: UnsafePointer<UnsafePointer<CChar>?>?, _ noptions: Int,
                     _ config: UnsafePointer<bt_config>?, _ directory: UnsafePointer<CChar>?, _ cancel: UnsafePointer<Int32>?,
                     _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let cfg = try Config.read(config)
        let options = try JobOptions(try stringList(options, noptions, "options"), known: sweepOptions, "options")
        let chosen = try Handles.shared.get(strategy, as: StrategyHandle.self, "strategy")
        let specs = try stringList(grid, ngrid, "grid")
        guard !specs.isEmpty else { throw InputError("give at least one axis to sweep (fast=5:50:5)", setting: .grid) }
        let folder = try requiredString(directory, "directory")
        let given = try bars.map { try Bars.candles($0, for: .backtest) }
        let name = try optionalString(symbol, "symbol")
        guard (given != nil) != (name != nil) else { throw BridgeError.input("give the bars or a symbol of the store db, one or the other") }
        let timeframe = try options["timeframe"].map(Timeframe.parse)
        let source = given.map { chosen.strategy(on: $0) } ?? chosen.strategy
        var plan: SweepPlan
        do {
            // The search by its name as bt sweep --search takes it: grid (every combination), random or bayes.
            plan = try SweepPlan(strategy: source, specs: specs, searchNamed: options["search"], trials: options["trials"],
                                 seed: options["seed"], fixed: try stringList(params, nparams, "params"), where: options["where"])
            (plan.rank, plan.objectives) = try SweepPlan.objectives(objective: options["objective"], rank: options["rank"],
                                                                    front: options["objectives"])
        } catch let problem as SweepPlan.Problem {
            // Worded with btcore's keywords: grid, params, where, objective, rank.
            switch problem {
            case .sweptAndFixed(let name): throw InputError("'\(name)' is both swept and fixed (params)", setting: .grid)
            case .noCombination: throw InputError("leaves no combination of the grid", setting: .where, value: options["where"])
            case .objectiveAndRank(let objective, let rank):
                throw InputError("differs from rank '\(rank)' (rank is objective's older name): give one", setting: .objective,
                                 value: objective.rawValue)
            }
        }
        plan.folds = try options.int("walk_forward")
        plan.blocks = try options.int("pbo_blocks") ?? 16
        plan.top = try options.int("top") ?? 20
        guard plan.top > 0 else { throw BridgeError.input("top '\(plan.top)': must be positive") }
        // Small chunks, so an interrupt is seen soon: two combinations per core between checkpoints.
        plan.chunkSize = max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let periodsPerYear = try Config.periodsPerYear(cfg)
        let db = try optionalString(cfg.db, "config.db")
        let report = try plan.run(symbol: name ?? given!.symbol, index: 0, directory: folder, rerun: "", checkpoint: {
            if let cancel, cancel.pointee != 0 { throw BridgeError(.cancelled, "the sweep was interrupted") }
        }, load: { symbol in
            let window: CandleWindow
            if let given {
                guard timeframe == nil else { throw InputError("picks a stored series: the bars given are at their own timeframe", setting: .timeframe) }
                window = try Config.window(cfg, of: given, inferredTick: { given.inferredTick }).window
            } else {
                guard let db else { throw InputError(.needsSetting, "a symbol is read from a store", setting: .store) }
                let (from, to) = try Config.range(cfg)
                window = try CandleStore(existingAt: db).loadWindow(symbol: symbol, timeframe: timeframe, from: from, to: to)
            }
            let execution = try Config.execution(cfg, candles: window.candles, inferredTick: { window.candles.inferredTick },
                                                 strategy: plan.strategy, parameters: plan.base).config
            return (window, execution, periodsPerYear)
        })
        out.pointee = Handles.shared.add(TextHandle(summary(report).serialized()))
    }
}

/// What btcore's `Sweep` reads besides sweep.csv: the best combination's values by axis, the
/// deflated Sharpe ratio and the probability of backtest overfitting (null where undefined),
/// and the counts.
private func summary(_ report: SweepReport) -> JSONValue {
    let best: JSONValue = report.summary.best.map { best in
        let values = report.grid.combination(at: report.combos[best])
        return .object(report.grid.axes.map { ($0.name, .number(values[$0.name]!)) })
    } ?? .null
    func number(_ v: Double?) -> JSONValue { v.flatMap { $0.isFinite ? JSONValue.number($0) : nil } ?? .null }
    return .object([
        ("best", best), ("rank", .string(report.rankStat.rawValue)),
        ("objectives", .array((report.pareto?.objectives ?? []).map { .string($0.rawValue) })),
        ("deflated_sharpe", number(report.deflation?.value)), ("pbo", number(report.summary.overfitting?.pbo)),
        ("combinations", .number(Double(report.combos.count))), ("evaluated", .number(Double(report.summary.evaluated))),
        ("failed", .number(Double(report.summary.failed))),
    ])
}
