/// A text chart and how it was drawn: when a series has more bars than the chart has columns,
/// each column stands for several bars (a line spans their lowest to highest value, a candle
/// merges them), and `note` says so, for the reader to see beside the chart.
public struct ChartDrawing: Sendable, Equatable {
    public var text: String
    /// Bars of the series drawn.
    public var bars: Int
    /// Columns the bars are spread over: braille dot columns for a line, cells for candles.
    public var columns: Int
    /// What each column keeps of its bars, for the note ("spans its bars' lowest to highest value").
    public var keeps: String

    public init(text: String, bars: Int, columns: Int, keeps: String) {
        self.text = text; self.bars = bars; self.columns = columns; self.keeps = keeps
    }

    /// More bars than columns: some column stands for several bars.
    public var isThinned: Bool { bars > columns }

    /// One line when thinned ("chart thinned for display: 1,000,000 bars in 176 columns, each
    /// ..."), nil when every bar has a column of its own.
    public var note: String? {
        guard isThinned else { return nil }
        return "chart thinned for display: \(PageData.grouped(bars)) bars in \(PageData.grouped(columns)) columns, each \(keeps)"
    }
}
