import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestPresentation

@Suite("Chart behaviour")
struct ChartBehaviourTests {
    /// `n` deterministic random-walk candles, one a day.
    static func walk(_ n: Int, seed: UInt = 1) -> CandleSeries {
        let rng = GSL.Random(seed: seed)
        var s = CandleSeries(symbol: "WALK", timeframe: .day1)
        var price = 100.0
        for i in 0..<n {
            let open = price
            price *= 1 + rng.gaussian(sigma: 0.01)
            let high = max(open, price) * (1 + rng.uniform() * 0.005)
            let low = min(open, price) * (1 - rng.uniform() * 0.005)
            s.append(time: 1_600_000_000 + Int64(i) * 86_400, open: open, high: high, low: low, close: price, volume: 1_000 + rng.uniform() * 500)
        }
        return s
    }

    static func lines(_ text: String) -> [[Character]] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { Array($0) }
    }

    @Test("the global high's column reaches the top row of the price panel")
    func globalHighOnTop() throws {
        let candles = Self.walk(10_000)
        let top = candles.high.indices.max { candles.high[$0] < candles.high[$1] }!
        let text = try CandleChart.render(candles, size: ChartSize(width: 100, height: 30))
        let rows = Self.lines(text)
        let gutter = rows[1].firstIndex(of: "┤")! + 1
        let column = ColumnMap(count: candles.count, slots: 100 - gutter).slot(of: top)
        #expect(rows[1].count > gutter + column && rows[1][gutter + column] != " ")
        // The top row spans only the top 1/27 of the scale: the global low's column stays off it.
        let bottom = candles.low.indices.min { candles.low[$0] < candles.low[$1] }!
        let lowColumn = ColumnMap(count: candles.count, slots: 100 - gutter).slot(of: bottom)
        #expect(rows[1].count <= gutter + lowColumn || rows[1][gutter + lowColumn] == " ")
    }

    @Test("a one-bar spike survives aggregation at 100 columns")
    func spikeSurvives() throws {
        var equity = [Double](repeating: 1_000, count: 5_000)
        equity[3_217] = 1_500
        let time = (0..<5_000).map { Int64($0) * 3_600 }
        let text = try EquityChart.render(time: time, equity: equity, initial: 1_000, size: ChartSize(width: 100, height: 20))
        let rows = Self.lines(text)
        let gutter = rows[1].firstIndex(of: "┤")! + 1
        let dot = ColumnMap(count: 5_000, slots: (100 - gutter) * 2).slot(of: 3_217)
        #expect(rows[1][gutter + dot / 2] != " ")
        // The flat part stays on the bottom row of the equity panel.
        #expect(rows[1][gutter...].filter { $0 != " " }.count <= 2)
    }

    @Test("no line is wider than the width, at several sizes", arguments: [(30, 10), (57, 13), (80, 24), (120, 40), (200, 60)])
    func widths(width: Int, height: Int) throws {
        let candles = Self.walk(777)
        let size = ChartSize(width: width, height: height)
        for text in [try CandleChart.render(candles, size: size),
                     try EquityChart.render(time: candles.time, equity: candles.close, initial: 100, size: size),
                     try HistogramChart.render(ReturnStats.returns(equity: candles.close, initial: 100), size: size)] {
            let rows = Self.lines(text)
            #expect(rows.count == height)
            #expect(rows.allSatisfy { $0.count <= width })
        }
    }

    @Test("flat series, NaN gaps, a single bar and no bars draw without crashing")
    func degenerate() throws {
        let size = ChartSize(width: 60, height: 16)
        let flat = CandleSeries(symbol: "FLAT", time: [0, 86_400, 172_800], open: [5, 5, 5], high: [5, 5, 5],
                                low: [5, 5, 5], close: [5, 5, 5], volume: [0, 0, 0])
        _ = try CandleChart.render(flat, size: size)
        _ = try CandleChart.render(flat.slice(0..<1), size: size)
        _ = try CandleChart.render(flat.slice(0..<0), size: size)
        let gappy = [1.0, .nan, 3, .nan, .nan, 2, 4]
        let eq = try EquityChart.render(time: (0..<7).map { Int64($0) * 86_400 }, equity: gappy, initial: 1, size: size)
        #expect(eq.contains("⠀") || eq.unicodeScalars.contains { $0.value > 0x2800 && $0.value <= 0x28FF })
        _ = try EquityChart.render(time: [0], equity: [7], initial: 7, size: size)
        _ = try EquityChart.render(time: [], equity: [], initial: 7, size: size)
        _ = try HistogramChart.render([0, 0, 0], size: size)
        _ = try HistogramChart.render([], size: size)
    }

    @Test("a too-small size is a clear input error")
    func tooSmall() {
        #expect(throws: InputError.self) { try EquityChart.render(time: [0], equity: [1], initial: 1, size: ChartSize(width: 10, height: 5)) }
        do {
            _ = try CandleChart.render(Self.walk(5), size: ChartSize(width: 20, height: 20))
            Issue.record("expected an error")
        } catch let e as InputError {
            #expect(e.description.contains("at least 30x10") && e.description.contains("20x20"))
        } catch { Issue.record("wrong error \(error)") }
    }

    @Test("without colour, a second and third line get their own glyphs and the legend shows them; with colour, braille")
    func linesApartWithoutColour() throws {
        let candles = Self.walk(80)
        let slow = candles.close.map { $0 * 0.97 }, slower = candles.close.map { $0 * 0.94 }
        let overlays: [CandleChart.Overlay] = [.init(name: "fast", values: candles.close), .init(name: "slow", values: slow),
                                                 .init(name: "slower", values: slower)]
        let size = ChartSize(width: 70, height: 20)
        let plain = try CandleChart.render(candles, overlays: overlays, size: size)
        let header = try #require(plain.split(separator: "\n").first)
        #expect(header.contains("fast ⠒  slow •  slower ×"), "\(header)")
        #expect(plain.dropFirst(header.count).contains("•") && plain.dropFirst(header.count).contains("×"))
        let colored = try CandleChart.render(candles, overlays: overlays, size: size, style: ChartStyle(color: true))
        #expect(!colored.contains("•") && !colored.contains("×"))
        // One line alone keeps its plain legend and braille.
        let one = try CandleChart.render(candles, overlays: [overlays[0]], size: size)
        #expect(!one.contains("•") && one.split(separator: "\n").first?.hasSuffix("fast") == true)
    }

    @Test("colour adds ANSI escapes only when enabled")
    func colour() throws {
        let candles = Self.walk(50)
        let plain = try CandleChart.render(candles, overlays: [.init(name: "c", values: candles.close)], size: ChartSize(width: 60, height: 16))
        let colored = try CandleChart.render(candles, overlays: [.init(name: "c", values: candles.close)], size: ChartSize(width: 60, height: 16), style: ChartStyle(color: true))
        #expect(!plain.utf8.contains(0x1B))
        #expect(colored.utf8.contains(0x1B))
        // Stripping the escapes gives back the plain chart.
        var stripped = "", inEscape = false
        for ch in colored.unicodeScalars {
            if ch == "\u{1B}" { inEscape = true; continue }
            if inEscape { if ch == "m" { inEscape = false }; continue }
            stripped.unicodeScalars.append(ch)
        }
        #expect(stripped == plain)
    }

    @Test("y labels are round and cover the data")
    func labels() {
        let s = YScale(min: 81.3, max: 817.4, rows: 25)
        #expect(s.lo <= 81.3 && s.hi >= 817.4)
        let labels = s.labels()
        #expect(labels.first!.row == 0 && labels.last!.row == 24)
        #expect(labels.dropFirst().dropLast().allSatisfy { Double($0.text)!.truncatingRemainder(dividingBy: 100) == 0 })
        #expect(s.position(817.4, steps: 100) < 4)   // the maximum is in the top row
        #expect(s.position(81.3, steps: 100) >= 96)  // the minimum is in the bottom row
        #expect(YScale.niceStep(0.37) == 0.5 && YScale.niceStep(2.1) == 2.5 && YScale.niceStep(1) == 1)
    }
}
