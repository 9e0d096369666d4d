/// The rows an import skipped with `--skip-bad-rows`: how many, and the first few lines with why.
public struct SkippedRows: Sendable, Equatable {
    public private(set) var count = 0
    /// The first `shown` skipped lines, with the reason of each.
    public private(set) var first: [(line: Int, reason: String)] = []
    static let shown = 5

    public init() {}

    mutating func add(_ line: Int, _ reason: String) {
        count += 1
        if first.count < Self.shown { first.append((line, reason)) }
    }

    mutating func add(_ other: SkippedRows) {
        first = Array((first + other.first).sorted { $0.line < $1.line }.prefix(Self.shown))
        count += other.count
    }

    /// `3 rows skipped: lines 4, 9, 12` style text, the first line's reason after it.
    public var summary: String {
        guard let firstRow = first.first else { return "no rows skipped" }
        let lines = first.map { String($0.line) }.joined(separator: ", ")
        return "\(count) row\(count == 1 ? "" : "s") skipped (line\(first.count == 1 ? "" : "s") \(lines)\(count > first.count ? ", ..." : "")"
            + "; line \(firstRow.line): \(firstRow.reason))"
    }

    public static func == (a: SkippedRows, b: SkippedRows) -> Bool {
        a.count == b.count && a.first.map(\.line) == b.first.map(\.line) && a.first.map(\.reason) == b.first.map(\.reason)
    }
}
