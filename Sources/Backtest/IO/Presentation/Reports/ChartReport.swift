import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

/// An interactive chart of a stored series as one self-contained page (`bt chart --html FILE`):
/// candles, volume and indicators with zoom, pan, crosshair and timeframe switches.
public struct ChartReport {
    public var candles: CandleSeries
    /// Stored or resampled timeframe; nil takes the candles' own.
    public var timeframe: String?
    public var indicators: [ChartIndicator]
    /// The command line as typed, for the manifest.
    public var commandLine: [String]

    public init(candles: CandleSeries, timeframe: String? = nil, indicators: [ChartIndicator] = [], commandLine: [String]) {
        self.candles = candles
        self.timeframe = timeframe ?? candles.timeframe?.rawValue
        self.indicators = indicators
        self.commandLine = commandLine
    }

    /// `specs` computed over all of `candles`, then the chart cut to the last `last` bars, so
    /// the shown indicator values have their full warm-up.
    /// - Throws: `InputError` for specs the series is too short for.
    public init(candles: CandleSeries, specs: [IndicatorSpec], last: Int? = nil, commandLine: [String]) throws {
        let start = last.map { max(0, candles.count - $0) } ?? 0
        let indicators = try specs.map { try ChartIndicator($0, on: candles).slice(start..<candles.count) }
        self.init(candles: candles.slice(start..<candles.count), timeframe: candles.timeframe?.rawValue,
                  indicators: indicators, commandLine: commandLine)
    }

    /// The page (kind `chart`).
    public func html() -> String {
        PageData.render(pageData, title: candles.symbol, kind: .chart)
    }

    var pageData: JSONValue {
        let data = RunManifest.Data(candles, timeframe: timeframe)
        var manifest: [(name: String, value: String)] = [("command", RunManifest.shellCommand(commandLine)),
                                            ("bt version", btVersion), ("symbol", data.symbol),
                                            ("timeframe", data.timeframe ?? "unknown")]
        if let first = data.first, let last = data.last {
            manifest.append(("data range", "\(UTCTime.iso(first)) .. \(UTCTime.iso(last))"))
        }
        manifest += [("bars", String(data.bars)), ("candles sha256", data.sha256)]
        manifest += indicators.map { ("indicator", $0.spec) }
        return PageData.page(.chart, title: candles.symbol, subtitle: PageData.subtitle(candles, timeframe: timeframe),
                             manifest: manifest, tables: [],
                             members: [(key: "chart", value: PageData.chart(candles, timeframe: timeframe, indicators: indicators))])
    }

    /// Writes the page to `path`, creating its directory.
    /// - Throws: `InputError` (kind `.outputExists`) when `path` exists and `force` is false, or
    ///   is a directory; `InternalError` when it cannot be written.
    @discardableResult
    public func write(to path: String, force: Bool = false) throws -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw InputError("is a directory, not a file", at: path) }
            guard force else { throw InputError(.outputExists, "file already exists; nothing was written", file: path) }
        }
        let directory = FileName.parent(of: path)
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw InputError("cannot create the directory (\(error.localizedDescription))", at: directory)
            }
        }
        // Written into an exclusive temporary file beside the target and renamed over it: a
        // failure leaves no half-written page, and no planted link is written through.
        do {
            try OutputDirectory.write(html(), toFile: path)
        } catch let e as OutputDirectory.WriteFailure {
            throw InternalError("\(path): cannot write the page (\(e.reason))")
        }
        return path
    }
}
