import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// The vectorbt goldens of `Tests/Fixtures/portfolio/goldens.json` (docs/design/portfolio-reference.md,
/// section 7) and helpers shared by the portfolio tests.
enum PortfolioGoldens {
    struct Order: Decodable, Sendable {
        var bar: Int
        var symbol: String
        var side: String
        var size: Double
        var price: Double
        var fees: Double
    }

    struct Round: Decodable, Sendable {
        var symbol: String
        var entry_bar: Int
        var exit_bar: Int
        var size: Double
        var entry_price: Double
        var exit_price: Double
        var entry_fees: Double
        var exit_fees: Double
        var pnl: Double
        var status: String
    }

    struct LogEntry: Decodable, Sendable {
        var bar: Int
        var symbol: String
        var status: String
        var info: String
        var group_value: Double
    }

    struct Unit: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var informational: Bool
        var symbols: [String]
        var init_cash: Double
        var fees: Double
        var val_price: String
        var open: [[Double?]]
        var close: [[Double?]]
        var target: [[Double?]]
        var orders: [Order]
        var log: [LogEntry]
        var value: [Double]
        var cash: [Double]
        var final_value: Double
        var trades: [Round]
        var positions: [Round]
        var testDescription: String { name }
    }

    struct SignalBars: Decodable, Sendable {
        var entries: [Int]
        var exits: [Int]
    }

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var symbols: [String]
        var files: [String: String]
        var mode: String
        var max_positions: Int
        var rank: String?
        var weight: String
        var rebalance: String
        var init_cash: Double
        var calendar: Calendar
        var signals: [String: SignalBars]?
        var decisions: [Decision]
        var targets: [Target]
        var final_value: Double
        var total_fees: Double
        var orders: [Order]
        var trades: [Round]
        var positions_same_as_trades: Bool
        var positions: [Round]?
        var value: [Double]
        var cash: [Double]
        var testDescription: String { name }

        struct Calendar: Decodable, Sendable { var bars: Int; var first: String; var last: String }
        struct Decision: Decodable, Sendable {
            var bar: Int
            var skipped: [String]?
            var dropped: [String]?
        }
        /// `[bar, symbol, target]`.
        struct Target: Decodable, Sendable {
            var bar: Int
            var symbol: String
            var target: Double
            init(from decoder: Decoder) throws {
                var c = try decoder.unkeyedContainer()
                bar = try c.decode(Int.self)
                symbol = try c.decode(String.self)
                target = try c.decode(Double.self)
            }
        }

        /// Round trips: vectorbt's positions (the same as its exit trades when signals only).
        var roundTrips: [Round] { positions ?? trades }
    }

    struct File: Decodable, Sendable {
        var vectorbt: String
        var units: [Unit]
        var cases: [Case]
    }

    static let path = "Tests/Fixtures/portfolio/goldens.json"

    /// The committed goldens (read once); a missing file fails every test that uses them.
    static func file() throws -> File { try cache.get() }

    private static let cache = Cache()
    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var value: File?
        func get() throws -> File {
            lock.lock(); defer { lock.unlock() }
            if let value { return value }
            let v = try JSONDecoder().decode(File.self, from: Repository.data(PortfolioGoldens.path))
            value = v
            return v
        }
    }

    /// The bt units (the informational ones show what vectorbt does otherwise).
    static func units() throws -> [Unit] { try file().units.filter { !$0.informational } }
    static func cases() throws -> [Case] { try file().cases }

    /// A unit's symbols as candles on their own calendars: one bar per row with an open (high and
    /// low the larger and smaller of open and close, no volume), one day apart from 2020-01-06.
    static func candles(_ unit: Unit) -> [CandleSeries] {
        unit.symbols.indices.map { j in
            var s = CandleSeries(symbol: unit.symbols[j], timeframe: .day1)
            for r in unit.open.indices {
                guard let o = unit.open[r][j], let c = unit.close[r][j] else { continue }
                s.append(time: 1_578_268_800 + Int64(r) * 86_400, open: o, high: max(o, c), low: min(o, c), close: c, volume: 0)
            }
            return s
        }
    }

    /// The config of the goldens: cash, 10 bps, no minimum, depth none, no participation cap.
    static func config(cash: Double) -> ExecutionConfig {
        var c = ExecutionConfig()
        c.initialCash = cash
        c.feeBps = 10
        c.feeMin = 0
        c.depth = .none
        c.maxParticipation = nil
        return c
    }

    /// A case's symbols with their candles (the committed files).
    static func candles(_ c: Case) throws -> [CandleSeries] {
        try c.symbols.map { try ShippedData.candles(file: c.files[$0]!, symbol: $0) }
    }

    /// ma-cross 10/30 as rules (equal to the built-in bit for bit; `FileStrategyTests`).
    static func maCross(_ candles: CandleSeries) throws -> Signals {
        let rules = try SignalRules([.entry: LocatedExpression("cross_above(sma(close, 10), sma(close, 30))", origin: .setting(.entry)),
                                     .exit: LocatedExpression("cross_below(sma(close, 10), sma(close, 30))", origin: .setting(.exit))],
                                    parameters: [])
        return try rules.signals(on: candles, values: [:])
    }

    /// An expression's values on `candles` (the rank).
    static func values(_ text: String, _ candles: CandleSeries) throws -> [Double] {
        try LocatedExpression(text, origin: .setting(.portfolioRank)).values(on: candles)
    }

    /// The rules of a case.
    static func rules(_ c: Case) throws -> PortfolioRules {
        PortfolioRules(maxPositions: c.max_positions, weighting: try .parse(c.weight), rebalance: try .parse(c.rebalance),
                       rotate: c.mode == "rotation")
    }

    /// A case's portfolio inputs: signals (signals mode) and ranks.
    static func symbols(_ c: Case) throws -> [PortfolioSymbol] {
        try candles(c).map { candles in
            PortfolioSymbol(candles: candles, signals: c.mode == "signals" ? try maCross(candles) : nil,
                            rank: try c.rank.map { try values($0, candles) })
        }
    }
}

/// The accounting invariants every portfolio test checks.
enum PortfolioInvariants {
    /// - Parameter account: a margin account or shorts: cash may go below 0, positions short,
    ///   and a cross liquidation closes a symbol without a bar at the row on its last bar.
    static func check(_ r: PortfolioResult, account: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        let n = r.time.count
        let account = account || r.account.account != nil || r.trades.contains { $0.trade.side == .short }
        #expect(r.cash.count == n && r.equity.count == n && r.positions.count == n, sourceLocation: sourceLocation)
        #expect(account || r.cash.allSatisfy { $0 >= 0 }, "cash went negative", sourceLocation: sourceLocation)
        // equity = cash + Σ position × close (the last close without a bar; inverse, − position / close), on every row.
        var position = [Double](repeating: 0, count: r.symbols.count)
        var fill = 0
        var cursor = [Int](repeating: 0, count: r.symbols.count)
        var worst = 0.0
        for row in 0..<n {
            while fill < r.fills.count && r.fills[fill].fill.index == row {
                let f = r.fills[fill]
                position[f.symbol] += f.fill.side == .buy ? f.fill.quantityFilled : -f.fill.quantityFilled
                if abs(position[f.symbol]) < 1e-9 * max(1, f.fill.quantityFilled) { position[f.symbol] = 0 }
                fill += 1
            }
            var expected = r.cash[row]
            for j in r.symbols.indices where position[j] != 0 {
                let c = r.candles[j]
                while cursor[j] + 1 < c.count && c.time[cursor[j] + 1] <= r.time[row] { cursor[j] += 1 }
                #expect(c.time[cursor[j]] <= r.time[row], "held before its first bar", sourceLocation: sourceLocation)
                let first = r.fills.first { $0.symbol == j }?.fill
                let m = first?.multiplier ?? 1
                // An inverse contract's position is worth −q × m / close, in the coin.
                expected += first?.inverse == true ? -position[j] * m / c.close[cursor[j]] : position[j] * m * c.close[cursor[j]]
            }
            // Relative to the account's scale: an account a liquidation left near 0 may trade dust.
            worst = max(worst, abs(r.equity[row] - expected) / max(1, abs(expected), account ? r.initialCash : 0))
            #expect(account || position.allSatisfy { $0 >= -1e-9 }, "a position went short", sourceLocation: sourceLocation)
        }
        #expect(fill == r.fills.count, "fills out of row order", sourceLocation: sourceLocation)
        #expect(worst <= 1e-9, "equity != cash + positions x close (worst \(worst))", sourceLocation: sourceLocation)
        let pnl = r.trades.reduce(0) { $0 + $1.trade.pnl }
        #expect(abs(r.initialCash + pnl - r.finalEquity) <= 1e-9 * max(1, abs(r.finalEquity)),
                "final equity \(r.finalEquity) != initial + trade PnL \(r.initialCash + pnl)", sourceLocation: sourceLocation)
        let fees = r.fills.reduce(0) { $0 + $1.fill.fee }
        #expect(abs(r.trades.reduce(0) { $0 + $1.trade.fees } - fees) <= 1e-9 * max(1, fees),
                "round-trip fees do not add up to fill fees", sourceLocation: sourceLocation)
        #expect(abs(r.contributions.reduce(0) { $0 + $1.pnl } - pnl) <= 1e-9 * max(1, abs(pnl)), sourceLocation: sourceLocation)
        for f in r.fills {
            #expect(f.fill.quantityFilled > 0 && f.fill.quantityFilled <= f.fill.quantityAsked * (1 + 1e-12), sourceLocation: sourceLocation)
            let time = r.candles[f.symbol].time[f.bar]
            #expect(time == r.time[f.fill.index] || (account && time < r.time[f.fill.index]), "a fill off its symbol's bar",
                    sourceLocation: sourceLocation)
        }
        for k in r.positions.indices { #expect(r.positions[k] >= 0, sourceLocation: sourceLocation) }
    }
}
