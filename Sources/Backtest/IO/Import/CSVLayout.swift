import BacktestAnalysis
import BacktestCore

/// Field splitting for one CSV line, without allocating per line.
enum CSVLine {
    /// Splits `line` on `delimiter` into `spans` (byte ranges relative to `line`, quotes
    /// stripped from quoted fields). `spans` is cleared first and keeps its capacity.
    static func split(_ line: UnsafeBufferPointer<UInt8>, delimiter: UInt8, into spans: inout [Range<Int>]) {
        spans.removeAll(keepingCapacity: true)
        var k = 0
        let n = line.count
        while true {
            while k < n, line[k] == 32 { k += 1 }
            if k < n, line[k] == 34 {  // quoted field
                let start = k + 1
                k = start
                while k < n, line[k] != 34 { k += 1 }
                spans.append(start..<k)
                while k < n, line[k] != delimiter { k += 1 }
            } else {
                let start = k
                while k < n, line[k] != delimiter { k += 1 }
                spans.append(start..<k)
            }
            if k >= n { return }
            k += 1
        }
    }

    static func split(_ line: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        split(line, delimiter: delimiter, into: &spans)
        return spans
    }

    static func text(_ line: UnsafeBufferPointer<UInt8>, _ span: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: line[span]), as: UTF8.self)
    }
}

/// Which CSV column holds what: from a header, or fixed (Binance klines).
struct CSVLayout {
    var delimiter: UInt8 = 44
    var hasHeader: Bool
    var time: Int
    var open: Int
    var high: Int
    var low: Int
    var close: Int
    var volume: Int?
    var adjustedClose: Int?

    /// Fewest fields a data row needs.
    var fieldsNeeded: Int { [time, open, high, low, close, volume ?? 0, adjustedClose ?? 0].max()! + 1 }

    /// Binance kline columns: open time, open, high, low, close, volume, close time, ...
    static let binance = CSVLayout(hasHeader: false, time: 0, open: 1, high: 2, low: 3, close: 4, volume: 5)

    static let timeNames: Set<String> = [
        "date", "datetime", "date_time", "date time", "time", "timestamp", "open time", "open_time", "opentime",
        "gmt time", "local time", "unix", "ts",
    ]
    static let adjustedNames: Set<String> = ["adj close", "adj_close", "adjclose", "adjusted close", "adjusted_close"]

    /// A header line: at least two fields, the first empty (a pandas index) or starting with a
    /// letter.
    static func looksLikeHeader(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let fields = CSVLine.split(line, delimiter: guessDelimiter(line))
        guard fields.count >= 2, let first = fields.first else { return false }
        if first.isEmpty { return true }
        let c = line[first.lowerBound] | 0x20
        return c >= 97 && c <= 122
    }

    /// Comma, unless the header has none and has semicolons or tabs.
    static func guessDelimiter(_ line: UnsafeBufferPointer<UInt8>) -> UInt8 {
        if line.contains(44) { return 44 }
        if line.contains(59) { return 59 }
        if line.contains(9) { return 9 }
        return 44
    }

    /// The layout named by a header line (case-insensitive names; a leading unnamed column is
    /// the time index as pandas writes it).
    /// - Throws: `InputError` at `file:line` naming a missing required column.
    init(header line: UnsafeBufferPointer<UInt8>, file: String, line number: Int, adjusted: Bool) throws {
        delimiter = Self.guessDelimiter(line)
        hasHeader = true
        let names = CSVLine.split(line, delimiter: delimiter).map {
            CSVLine.text(line, $0).trimmingSpaces.lowercased()
        }
        func index(_ accepted: Set<String>) -> Int? { names.firstIndex { accepted.contains($0) } }
        func required(_ name: String, _ accepted: Set<String>) throws -> Int {
            guard let i = index(accepted) else {
                throw InputError(
                    "missing required column '\(name)' (header has: \(names.map { $0.isEmpty ? "(unnamed)" : $0 }.joined(separator: ", ")))",
                    file: file, line: number)
            }
            return i
        }
        if let named = index(Self.timeNames) {
            time = named
        } else if names.first == "" || names.first == "unnamed: 0" || names.first == "index" {
            time = 0
        } else {
            time = try required("date", Self.timeNames)
        }
        open = try required("open", ["open", "o"])
        high = try required("high", ["high", "h"])
        low = try required("low", ["low", "l"])
        close = try required("close", ["close", "c"])
        volume = index(["volume", "vol", "v"])
        adjustedClose = adjusted ? try required("adj close", Self.adjustedNames) : nil
    }

    init(hasHeader: Bool, time: Int, open: Int, high: Int, low: Int, close: Int, volume: Int?) {
        self.hasHeader = hasHeader
        self.time = time
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
    }
}
