import BacktestCore

/// A CSV file written cell by cell into bytes (`TextBytes`): the cells `CSV.text`,
/// `CSV.number` and `UTCTime.iso` give, separated by commas, each row ended by a line feed,
/// without a `String` per cell or per row (a million-row `equity.csv` took a second that way).
struct CSVWriter {
    private(set) var text: TextBytes
    private var rowStarted = false

    /// Starts the file with its header row (names written as they are: snake_case literals).
    init(header: [String], reservingRows rows: Int = 0, bytesPerRow: Int = 0) {
        text = TextBytes(reservingCapacity: rows * bytesPerRow)
        for name in header { literal(name) }
        endRow()
    }

    private mutating func separate() {
        if rowStarted { text.append(UInt8(ascii: ",")) }
        rowStarted = true
    }

    /// `CSV.number(v)`: shortest round-trip decimal; empty for NaN and infinities.
    mutating func number(_ v: Double) {
        separate()
        if v.isFinite { text.append(shortest: v) }
    }

    mutating func integer(_ v: Int) {
        separate()
        text.append(integer: Int64(v))
    }

    /// `UTCTime.iso(t)`.
    mutating func time(_ t: Int64) {
        separate()
        text.append(iso: t)
    }

    /// Untrusted text, escaped as `CSV.text` does.
    mutating func text(_ s: String) {
        separate()
        text.append(CSV.text(s))
    }

    /// Text bt chose (names, `true`/`false`, enum raw values): written as it is.
    mutating func literal(_ s: String) {
        separate()
        text.append(s)
    }

    mutating func bool(_ v: Bool) { literal(v ? "true" : "false") }

    mutating func endRow() {
        text.append(UInt8(ascii: "\n"))
        rowStarted = false
    }

    var bytes: [UInt8] { text.bytes }

    /// The bytes written since the start or the last take, leaving the writer empty (with as
    /// much room) to go on: a long file written piece by piece.
    mutating func takeBytes() -> [UInt8] {
        let taken = text.bytes
        text = TextBytes(reservingCapacity: taken.count)
        return taken
    }
}
