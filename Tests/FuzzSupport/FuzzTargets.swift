import Backtest
import Foundation

/// bt's fuzz targets: one per importer (the format forced), one for format detection, and the
/// two text parsers of the command line (`--where`, `--grid`).
public enum FuzzTargets {
    /// The repository root (`Tests/FuzzSupport/FuzzTargets.swift` is three levels below it).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let csv = importer(.csv)
    public static let binance = importer(.binance)
    public static let alphavantage = importer(.alphavantage)
    public static let trades = importer(.trades)
    public static let book = importer(.book)
    public static let funding = importer(.funding)
    /// Format detection, then whichever importer it picks.
    public static let detect = importer(nil, name: "detect")

    /// `--where` filters: parse against three parameter names, then evaluate on a few values.
    public static let `where` = FuzzTarget.parser("where") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let clause = try WhereClause(text, names: ["fast", "slow", "k"])
        for values in [["fast": 5.0, "slow": 20, "k": 2], ["fast": 0, "slow": 0, "k": -1], ["fast": .nan, "slow": 1e300, "k": 0]] {
            _ = clause.matches(values)
        }
    }

    /// `--grid` specs, one per line: a parsed grid is within the limits and every value finite.
    public static let grid = FuzzTarget.parser("grid") { bytes in
        let specs = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        let grid = try ParameterGrid(parsing: specs)
        Check.that(grid.count <= ParameterGrid.maximumCombinations, "grid of \(grid.count) combinations accepted")
        for axis in grid.axes {
            Check.that(!axis.values.isEmpty && axis.values.count <= ParameterGrid.maximumValuesPerAxis, "axis size \(axis.values.count)")
            Check.that(axis.values.allSatisfy(\.isFinite), "non-finite grid value")
        }
    }

    /// Strategy expressions (`--entry`, rules, `screen --where`): parsed, checked against a
    /// number parameter `$n`, bound with `$n = 4`, and evaluated on 60 synthetic bars. Errors show
    /// the expression with a caret, so they may hold the whole input (twice, at most).
    public static let expression = FuzzTarget.parser("expression", longestMessage: { 2 * $0 + Check.longestMessage }) { bytes in
        let e = try LocatedExpression(String(decoding: bytes, as: UTF8.self), origin: .setting(.entry))
        try e.check(parameters: [ExpressionParameter("n", .number)])
        let node = try e.bind(["n": .number(4)])
        let count = try ExpressionPlan([node]).evaluate(on: expressionCandles, cache: IndicatorCache(),
                                                        workspace: ExpressionWorkspace()) { $0[0].count }
        Check.that(count == expressionCandles.count, "an expression gave \(count) values for \(expressionCandles.count) bars")
    }

    static let expressionCandles = Synth.series(symbol: "FUZZ", bars: 60, seed: 3, timeframe: .day1)

    /// Strategy files (`strategies/*.bt`).
    public static let strategyFile = FuzzTarget.parser("strategy-file", longestMessage: { 2 * $0 + Check.longestMessage }) { bytes in
        _ = try StrategyFile(parsing: String(decoding: bytes, as: UTF8.self), path: "fuzz.bt")
    }

    /// External signal files (`--signals`), against 60 daily bar times.
    public static let signals = FuzzTarget.parser("signals") { bytes in
        let signals = try SignalsFile.parse(String(decoding: bytes, as: UTF8.self), path: "fuzz.csv",
                                            times: expressionCandles.time)
        Check.that(signals.entries.count == expressionCandles.count && signals.exits.count == expressionCandles.count,
                   "signals of the wrong length")
    }

    /// The numbers `bt data fetch` reads from a server: the first line is a header's value (the
    /// used weight, `Retry-After`, a number in ±10^9), the rest a body read as Binance's
    /// `exchangeInfo`, as an error body and as a klines page. What is accepted lies in range.
    public static let networkNumbers = FuzzTarget.parser("network-numbers") { bytes in
        let all = Array(bytes)
        let cut = all.firstIndex(of: 10) ?? all.count
        let header = String(decoding: all[..<cut], as: UTF8.self)
        let body = Array(all[min(cut + 1, all.count)...])
        if let v = NetworkNumber.retryAfter(header) { Check.that(v.isFinite && v >= 0, "Retry-After \(v) accepted") }
        if let v = try? NetworkNumber.integer(header, "a header", in: -1_000_000_000...1_000_000_000) {
            Check.that(abs(v) <= 1_000_000_000, "header \(v) accepted")
        }
        let words = FetchSettings.refusalWords(body, secret: "SECRET")
        // At most 200 characters of the body, each escaped in at most 10 (`\u{202e}`), and a count.
        Check.that(words.unicodeScalars.count <= 2_100 && !words.contains("SECRET"), "refusal words: \(words.prefix(200))")
        if let series = try? BinanceFetch.klinesPage(body, interval: .minute1, serverTimeMs: 1_710_506_096_789), !series.isEmpty {
            checkCandles(series)
        }
        let info = try BinanceFetch.exchangeInfo(body, usedWeight: header)
        Check.that(info.serverTimeMs >= 1 && info.serverTimeMs <= UTCTime.supportedRange.upperBound * 1000 + 999,
                   "serverTime \(info.serverTimeMs)")
        if let used = info.usedWeight { Check.that(used >= 0 && used <= BinanceFetch.largestWeight, "used weight \(used)") }
        if let limit = info.weightLimit {
            Check.that(limit.weight >= 1 && limit.weight <= BinanceFetch.largestWeight && limit.seconds >= 1 && limit.seconds.isFinite,
                       "weight limit \(limit)")
        }
    }

    /// The files of a shard's partial result, which `bt merge` reads: the bytes as a screen's,
    /// a condition screen's, a sweep's rows or walk-forward choices (by their magic; any other
    /// bytes as each in turn), or as `partial.json` when they start with `{`. What is accepted
    /// lies in the ranges a shard writes.
    public static let shardFiles = FuzzTarget.parser("shard-files") { bytes in
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bt-fuzz-shard-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = Array(bytes)
        let name = all.first == UInt8(ascii: "{") ? "partial.json" : "rows"
        let path = dir.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: path, contents: Data(all)) else { return }
        if name == "partial.json" {
            guard let folder = try? PartialFolder(path: dir.path) else { return }
            let m = folder.manifest
            Check.that(m.items >= 0 && m.assigned >= 0 && m.assigned <= m.items, "manifest items \(m.assigned)/\(m.items)")
            Check.that(m.files.keys.allSatisfy { m.checksums[$0]?.count == 64 }, "a file without a checksum")
            return
        }
        func inRange(_ v: Double, _ metric: Stat) {
            switch metric.unit {
            case .time: Check.that(v.isNaN || (v >= 0 && v <= Double(UTCTime.supportedRange.upperBound)), "\(metric.name) \(v)")
            case .bars, .count, .days: Check.that(v.isNaN || v >= 0, "\(metric.name) \(v)")
            default: break
            }
        }
        let magic = String(decoding: all.prefix(8), as: UTF8.self)
        var last: Error?
        for kind in ["btSCREEN", "btCONDIT", "btSWEEP1", "btFOLDS1"] where magic == kind || !magic.hasPrefix("bt") {
            do {
                switch kind {
                case "btSCREEN":
                    for (_, row) in try ScreenRowsFile.read(path) {
                        Check.that(row.bars >= 0 && row.bars <= 1 << 30, "bars \(row.bars)")
                        Check.that(row.equityShape.allSatisfy { $0.isNaN || abs($0) <= 1e250 }, "equity \(row.equityShape.prefix(4))")
                        if let stats = row.stats {
                            Check.that(stats.periodsPerYear > 0 && stats.periodsPerYear.isFinite, "ppy \(stats.periodsPerYear)")
                            for (stat, value) in stats.all { inRange(value, stat) }
                        }
                    }
                case "btCONDIT":
                    for (_, row) in try ConditionRowsFile.read(path) {
                        Check.that(row.time.map { UTCTime.supportedRange.contains($0) } ?? true, "time \(row.time ?? 0)")
                    }
                case "btSWEEP1":
                    let reader = try SweepRowsReader(path: path)
                    while let combo = try reader.peek() {
                        Check.that(combo >= 0, "combination \(combo)")
                        if let m = try reader.next().stats { for (metric, v) in zip(SweepStats.columns, m.values) { inRange(v, metric) } }
                    }
                default:
                    for choice in try WalkForwardChoicesFile.read(path) { Check.that((choice.combo ?? 0) >= 0, "choice \(choice)") }
                }
            } catch {
                last = error
            }
        }
        if let last { throw last }
    }

    /// `bt live`'s frames: the bytes as a stream frame and as a REST depth snapshot. Either
    /// is accepted or rejected with a `FrameRejection` whose reason is short; what is accepted
    /// lies in range (ids and times within bt's, prices finite and > 0, quantities finite and
    /// >= 0, a trade's > 0, U <= u), and accepted diffs and snapshots drive a `DepthSync`,
    /// whose book then holds only positive, finite levels.
    /// A page of Binance futures funding rates (`BinanceFundingFetch.page`): what it accepts is
    /// in range (`FundingRate.problem`) and strictly increasing in time.
    public static let binanceFunding = FuzzTarget.parser("binance-funding") { bytes in
        let page = try BinanceFundingFetch.page(Array(bytes), name: "page", symbol: "BTCUSDT")
        Check.that(page.rows.count <= page.count, "\(page.rows.count) rows of \(page.count)")
        Check.that(page.rows.allSatisfy { $0.problem == nil }, "a funding row out of range accepted")
        Check.that(zip(page.rows, page.rows.dropFirst()).allSatisfy { $0.timeMs < $1.timeMs }, "funding rows out of order")
    }

    public static let binanceFrames = FuzzTarget(name: "binance-frames") { bytes in
        let parser = BinanceFrameParser(symbol: "BTCUSDT")
        let raw = UnsafeRawBufferPointer(bytes)
        func checkLevels(_ levels: [BookLevel]) {
            Check.that(levels.count <= BinanceFrameParser.maxLevels, "\(levels.count) levels")
            for l in levels { Check.that(l.price > 0 && l.price.isFinite && l.quantity >= 0 && l.quantity.isFinite, "level \(l)") }
        }
        var sync = DepthSync(), futures = DepthSync(procedure: .futures)
        do {
            switch try parser.message(raw) {
            case .trade(let t):
                Check.that(t.price > 0 && t.price.isFinite && t.quantity > 0 && t.quantity.isFinite, "trade \(t)")
                Check.that(t.id >= 0 && t.timeMs >= 0 && t.timeMs <= UTCTime.supportedRange.upperBound * 1000 + 999, "trade \(t)")
            case .depth(let d):
                Check.that(d.firstId <= d.lastId, "U \(d.firstId) after u \(d.lastId)")
                checkLevels(d.bids); checkLevels(d.asks)
                sync.receive(d)
                futures.receive(d)
            case .mark(let m):
                Check.that(m.markPrice > 0 && m.markPrice.isFinite && abs(m.rate) <= FundingRate.largestRate && m.nextFundingMs > 0,
                           "mark update \(m)")
                var funding = LiveFunding()
                if let row = funding.receive(m) { Check.fail("a first update settled \(row)") }
            }
        } catch let r as FrameRejection {
            Check.that(r.reason.count <= Check.longestMessage, "a rejection of \(r.reason.count) characters")
        } catch {
            Check.fail("binance-frames: not a FrameRejection: \(type(of: error)): \(error)")
        }
        do {
            let snap = try parser.snapshot(raw)
            checkLevels(snap.bids); checkLevels(snap.asks)
            sync.receive(DepthDiff(eventMs: 1, firstId: snap.lastUpdateId, lastId: snap.lastUpdateId &+ 1, bids: snap.bids, asks: []))
            sync.receive(snap)
            for side in [OrderSide.buy, .sell] {
                sync.book.visitLevels(side) { l in
                    Check.that(l.quantity > 0 && l.quantity.isFinite && l.price.isFinite, "book level \(l)")
                    return true
                }
            }
        } catch let r as FrameRejection {
            Check.that(r.reason.count <= Check.longestMessage, "a rejection of \(r.reason.count) characters")
        } catch {
            Check.fail("binance-frames: not a FrameRejection: \(type(of: error)): \(error)")
        }
    }

    public static let all: [FuzzTarget] = [csv, binance, alphavantage, trades, book, funding, detect, `where`, grid,
                                           expression, strategyFile, signals, networkNumbers, shardFiles, binanceFrames,
                                           binanceFunding]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// An importer target: bytes read as the file `input.<ext>` with `format` forced (nil:
    /// detected). A file that is accepted must hold what the store promises to keep (see
    /// `checkCandles`), and must export and import back to exactly the same bars.
    static func importer(_ format: ImportFormat?, name: String? = nil) -> FuzzTarget {
        let fileName = "input." + (format == .alphavantage ? "json" : format == .trades || format == .book ? "jsonl" : "csv")
        return FuzzTarget.parser(name ?? format!.rawValue) { bytes in
            let file = try Importer.read(bytes: Array(bytes), name: fileName, options: ImportOptions(format: format))
            switch file.content {
            case .candles(let series):
                checkCandles(series)
                checkRoundTrip(series)
            case .book(let events):
                checkBook(events)
            case .funding(let rows):
                Check.that(rows.allSatisfy { $0.problem == nil }
                               && zip(rows, rows.dropFirst()).allSatisfy { $0.timeMs < $1.timeMs },
                           "funding rows out of range or order")
            }
        }
    }

    /// What a validated series promises: at least one bar, times strictly increasing within
    /// 1970..9999, prices within 1e-12...1e12 (the supported range), volumes within 1e250,
    /// high >= max(open, close), low <= min(open,
    /// close), volume >= 0 (or missing, NaN, on a close-only bar), and a timeframe unless there is
    /// a single bar.
    public static func checkCandles(_ s: CandleSeries) {
        Check.that(s.count > 0, "empty series accepted")
        Check.that(s.timeframe != nil || s.count == 1, "several bars without a timeframe")
        for i in 0..<s.count {
            Check.that(UTCTime.supportedRange.contains(s.time[i]), "time \(s.time[i]) out of range")
            if i > 0 { Check.that(s.time[i] > s.time[i - 1], "times not increasing at \(i)") }
            for v in [s.open[i], s.high[i], s.low[i], s.close[i]] {
                Check.that(v >= 1e-12 && v <= 1e12, "price \(v) at bar \(i)")
            }
            // A missing (NaN) volume only on a close-only bar: open = high = low = close.
            let flat = s.open[i] == s.high[i] && s.high[i] == s.low[i] && s.low[i] == s.close[i]
            Check.that((s.volume[i].isNaN && flat) || (s.volume[i].isFinite && abs(s.volume[i]) <= 1e250),
                       "volume \(s.volume[i]) at bar \(i)")
            Check.that(s.high[i] >= max(s.open[i], s.close[i]), "high below open/close at \(i)")
            Check.that(s.low[i] <= min(s.open[i], s.close[i]), "low above open/close at \(i)")
            Check.that(s.volume[i].isNaN || s.volume[i] >= 0, "negative volume at \(i)")
            if let tf = s.timeframe, i > 0 {
                Check.that(tf.bucketStart(s.time[i]) != tf.bucketStart(s.time[i - 1]), "two bars in one \(tf.rawValue) bar at \(i)")
            }
        }
    }

    /// Export as `bt data export` writes it, import again: the same bars, bit for bit.
    public static func checkRoundTrip(_ s: CandleSeries) {
        do {
            let again = try Importer.read(bytes: Array(s.csvText().utf8), name: "export.csv",
                                          options: ImportOptions(symbol: "X", timeframe: s.timeframe, format: .csv))
            guard case .candles(let t) = again.content else { Check.fail("export read back as a book") }
            Check.that(t.time == s.time && t.open == s.open && t.high == s.high && t.low == s.low && t.close == s.close
                           && t.volume.map(\.bitPattern) == s.volume.map(\.bitPattern), "export/import round trip changed the bars")
        } catch {
            Check.fail("exported series does not import again: \(error)")
        }
    }

    /// Events start with a snapshot, times never go back, every level is finite and non-negative.
    public static func checkBook(_ events: [BookEvent]) {
        Check.that(events.first?.kind == .snapshot, "book does not start with a snapshot")
        for (k, e) in events.enumerated() {
            if k > 0 { Check.that(e.timeMs >= events[k - 1].timeMs, "book time goes back at \(k)") }
            for level in e.bids + e.asks {
                Check.that(level.price.isFinite && level.price >= 0 && level.quantity.isFinite && level.quantity >= 0,
                           "bad level \(level) at \(k)")
            }
        }
    }
}
