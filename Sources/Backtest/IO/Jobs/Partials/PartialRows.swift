import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

// The payload files of a shard, one codec each. Values are stored bit for bit, so the merge
// summarises and writes exactly what the shard computed.

/// A sweep shard's rows (`sweep-<i>.rows`), in combination order: per row its combination
/// number, then either every `SweepStats` value, the per-period Sharpe ratio and (for
/// combinations in PBO's subsample) the CSCV block sums and squares, or the error text.
/// 16 + 8 x columns bytes per row that ran (plus 16 x blocks in the subsample): the whole
/// return series never leaves the shard.
public final class SweepRowsWriter {
    static let magic = "btSWEEP1"
    private let writer: RecordWriter
    private let name: String
    private unowned let partial: PartialWriter

    /// Starts `name` in the partial folder.
    public init(_ name: String, in partial: PartialWriter) throws {
        self.name = name
        self.partial = partial
        writer = try RecordWriter(path: partial.file(name), magic: Self.magic)
        writer.int(SweepStats.columns.count)
    }

    public func write(_ rows: [Sweep.Row]) throws {
        for row in rows {
            writer.int(row.combo)
            if let m = row.stats {
                let blocks = row.blockSums.map { ($0, row.blockSquares!) }
                writer.u8(blocks == nil ? 1 : 3)
                for v in m.values { writer.double(v) }
                writer.double(m.periodSharpe)
                if let (sums, squares) = blocks {
                    writer.doubles(sums)
                    for v in squares { writer.double(v) }
                }
            } else {
                writer.u8(0)
                writer.string(row.error ?? "")
            }
            try writer.flush(threshold: 1 << 20)
        }
    }

    public func close() throws {
        try partial.add(writer, as: name)
    }
}

/// Reads `SweepRowsWriter` files back, row by row.
public final class SweepRowsReader {
    private let reader: RecordReader
    private var pending: Sweep.Row?
    private let columns: Int

    public init(path: String) throws {
        reader = try RecordReader(path: path, magic: SweepRowsWriter.magic)
        columns = try reader.int()
        guard columns == SweepStats.columns.count else {
            throw InputError("holds \(columns) metrics per row; this bt computes \(SweepStats.columns.count)", at: path)
        }
    }

    /// The combination number of the next row, nil at the end.
    public func peek() throws -> Int? {
        if pending == nil, try !reader.atEnd { pending = try read() }
        return pending?.combo
    }

    /// The next row (after `peek` returned a number).
    public func next() throws -> Sweep.Row {
        _ = try peek()
        guard let row = pending else { throw InputError("ends early: the partial result is incomplete", at: reader.path) }
        pending = nil
        return row
    }

    private func read() throws -> Sweep.Row {
        let combo = try reader.int(in: 0...Int(Int32.max), "a combination number")
        let flags = try reader.u8()
        try reader.require([0, 1, 3].contains(flags), "a row kind of \(flags)")
        guard flags & 1 == 1 else { return Sweep.Row(combo: combo, error: try reader.string()) }
        var values = [Double]()
        values.reserveCapacity(columns)
        for stat in SweepStats.columns {
            let v = try reader.double()
            try reader.statistic(stat, v)
            values.append(v)
        }
        var row = Sweep.Row(combo: combo, stats: SweepStats(values: values, periodSharpe: try reader.double("a per-period Sharpe ratio")))
        if flags & 2 != 0 {
            let sums = try reader.doubles("a block sum", limit: 1 << 16)
            row.blockSums = sums
            row.blockSquares = try sums.map { _ in try reader.double("a block sum of squares") }
        }
        return row
    }
}

/// A sweep shard's walk-forward choices (`sweep-<i>.folds`): per step, the best combination of
/// the shard's own on the in-sample fold (-1 for none) and its rank statistic there.
public enum WalkForwardChoicesFile {
    static let magic = "btFOLDS1"

    public static func write(_ choices: [WalkForward.Choice], name: String, in partial: PartialWriter) throws {
        let w = try RecordWriter(path: partial.file(name), magic: magic)
        w.int(choices.count)
        for c in choices {
            w.int(c.combo ?? -1)
            w.double(c.value)
        }
        try partial.add(w, as: name)
    }

    public static func read(_ path: String) throws -> [WalkForward.Choice] {
        let r = try RecordReader(path: path, magic: magic)
        return try (0..<r.count(limit: 1 << 20)).map { _ in
            let combo = try r.int(in: -1...Int(Int32.max), "a combination number")
            return WalkForward.Choice(combo: combo < 0 ? nil : combo, value: try r.double("a walk-forward rank value"))
        }
    }
}

/// A strategy screen shard's rows (`screen.rows`): per symbol its position in the screen's
/// symbol list, name (`SYMBOL@TF` when the timeframe is known), status, error, bars, periods per year, every statistic and the equity
/// shape of the sparklines, and the Monte Carlo columns when the screen makes them.
public enum ScreenRowsFile {
    static let magic = "btSCREEN"

    public static func write(_ rows: [(position: Int, row: Screen.Row)], name: String, in partial: PartialWriter) throws {
        let w = try RecordWriter(path: partial.file(name), magic: magic)
        w.int(Stat.allCases.count)
        w.int(rows.count)
        for (position, row) in rows {
            w.int(position)
            w.string(row.series)  // SYMBOL@TF when the timeframe is known
            w.string(row.status.rawValue)
            w.optionalString(row.error)
            w.int(row.bars)
            if let s = row.stats {
                w.u8(1)
                w.double(s.periodsPerYear)
                w.doubles(s.values)
            } else {
                w.u8(0)
            }
            w.doubles(row.equityShape)
            w.u8(row.monteCarlo == nil ? 0 : 1)
            if let mc = row.monteCarlo { w.doubles(mc) }
            try w.flush(threshold: 1 << 20)
        }
        try partial.add(w, as: name)
    }

    public static func read(_ path: String) throws -> [(position: Int, row: Screen.Row)] {
        let r = try RecordReader(path: path, magic: magic)
        let statCount = try r.int()
        guard statCount == Stat.allCases.count else {
            throw InputError("holds \(statCount) statistics per symbol; this bt computes \(Stat.allCases.count)", at: path)
        }
        return try (0..<r.count(limit: 1 << 26)).map { _ in
            let position = try r.int()
            let symbol = try r.string()
            let statusText = try r.string()
            guard let status = Screen.Row.Status(rawValue: statusText) else {
                throw InputError("holds an unknown status \(Excerpt.quoted(statusText))", at: path)
            }
            let name = SeriesName.split(symbol)
            var row = Screen.Row(symbol: name?.0 ?? symbol, timeframe: name?.1, status: status, error: try r.optionalString(),
                                 bars: try r.int(in: 0...CandleStore.maximumBars, "a bar count"))
            let hasStats = try r.u8()
            try r.require(hasStats <= 1, "a statistics flag of \(hasStats)")
            if hasStats == 1 {
                let ppy = try r.double()
                try r.require(RecordReader.isPlausible(ppy, .perYear), "\(ppy) periods per year")
                let values = try r.doubles(limit: 1 << 16)
                guard values.count == statCount else { throw InputError("holds a row with \(values.count) statistics", at: path) }
                for (stat, v) in zip(Stat.allCases, values) { try r.statistic(stat, v) }
                row.stats = Stats(values: values, periodsPerYear: ppy)
            }
            // Equity values are money: within the magnitude the store accepts for prices.
            row.equityShape = try r.doubles("an equity value", limit: 1 << 16, largest: ParsedCandles.largestMagnitude)
            let hasMonteCarlo = try r.u8()
            try r.require(hasMonteCarlo <= 1, "a Monte Carlo flag of \(hasMonteCarlo)")
            if hasMonteCarlo == 1 {
                let values = try r.doubles("a Monte Carlo figure", limit: 1 << 8)
                guard values.count == MonteCarlo.columns.count else {
                    throw InputError("holds a row with \(values.count) Monte Carlo figures", at: path)
                }
                row.monteCarlo = values
            }
            return (position, row)
        }
    }
}

/// A condition screen shard's rows (`condition.rows`): per symbol its position, name, status,
/// timeframe, time of the bar looked at, shown values and error.
public enum ConditionRowsFile {
    static let magic = "btCONDIT"

    public static func write(_ rows: [(position: Int, row: ConditionScreen.Row)], name: String, in partial: PartialWriter) throws {
        let w = try RecordWriter(path: partial.file(name), magic: magic)
        w.int(rows.count)
        for (position, row) in rows {
            w.int(position)
            w.string(row.symbol)
            w.string(row.status.rawValue)
            w.optionalString(row.timeframe)
            w.u8(row.time == nil ? 0 : 1)
            if let t = row.time { w.int(Int(t)) }
            w.doubles(row.values)
            w.optionalString(row.error)
            try w.flush(threshold: 1 << 20)
        }
        try partial.add(w, as: name)
    }

    public static func read(_ path: String) throws -> [(position: Int, row: ConditionScreen.Row)] {
        let r = try RecordReader(path: path, magic: magic)
        return try (0..<r.count(limit: 1 << 26)).map { _ in
            let position = try r.int()
            let symbol = try r.string()
            let statusText = try r.string()
            guard let status = ConditionScreen.Row.Status(rawValue: statusText) else {
                throw InputError("holds an unknown status \(Excerpt.quoted(statusText))", at: path)
            }
            let timeframe = try r.optionalString()
            if let timeframe { try r.require(Timeframe(rawValue: timeframe) != nil, "a timeframe \(Excerpt.quoted(timeframe))") }
            let hasTime = try r.u8()
            try r.require(hasTime <= 1, "a time flag of \(hasTime)")
            let time: Int64? = hasTime == 1 ? Int64(try r.int(in: Int(UTCTime.supportedRange.lowerBound)...Int(UTCTime.supportedRange.upperBound), "a time")) : nil
            let values = try r.doubles(limit: 1 << 16)  // any value: an expression may give infinities
            return (position, ConditionScreen.Row(symbol: symbol, status: status, timeframe: timeframe, time: time,
                                                  values: values, error: try r.optionalString()))
        }
    }
}
