/// The replay's state at every strategy step (the book's mid, the quote in force on each side,
/// the position), kept for report.html's chart in bounded memory: consecutive steps are folded
/// into columns holding each series' lowest and highest value and the steps they fell on.
///
/// While the replay has at most `capacity` steps, each column is one step. When a step would
/// make `capacity + 1` columns, neighbouring columns are merged in pairs and each column from
/// then on takes twice the steps, so a replay of any length ends with between `capacity / 2`
/// and `capacity` columns of equal width (the last may be partly filled). Merging keeps the
/// exact extremes of the union, so every column holds the lowest and highest value of each
/// series over its steps, whatever the number of merges.
///
/// - Complexity: O(1) amortised per step; memory O(`capacity`).
package struct ReplayTrace: Sendable {
    /// The series traced, in the order of `Column.series`.
    package enum Series: Int, CaseIterable, Sendable {
        case mid, bidQuote, askQuote, position
    }

    /// A series' lowest and highest finite value over a column, with the steps (0-based, in the
    /// replay's order) they fell on; the first of equal values is kept. NaN and step -1 when the
    /// column holds no finite value (a side not quoted, a book side empty).
    package struct Extremes: Equatable, Sendable {
        package var min = Double.nan
        package var minStep = -1
        package var max = Double.nan
        package var maxStep = -1

        mutating func take(_ value: Double, step: Int) {
            guard value.isFinite else { return }
            if !(value >= min) { (min, minStep) = (value, step) }
            if !(value <= max) { (max, maxStep) = (value, step) }
        }

        /// The extremes of this column followed by `later`'s steps.
        mutating func merge(_ later: Extremes) {
            if later.minStep >= 0 && !(later.min >= min) { (min, minStep) = (later.min, later.minStep) }
            if later.maxStep >= 0 && !(later.max <= max) { (max, maxStep) = (later.max, later.maxStep) }
        }
    }

    /// Consecutive steps folded together.
    package struct Column: Sendable {
        /// The first step and the number of steps.
        package var firstStep: Int
        package var steps: Int
        /// Local times of the first and the last step, UTC nanoseconds.
        package var firstNs: Int64
        package var lastNs: Int64
        package var mid = Extremes()
        package var bidQuote = Extremes()
        package var askQuote = Extremes()
        package var position = Extremes()

        package subscript(_ s: Series) -> Extremes {
            switch s {
            case .mid: mid
            case .bidQuote: bidQuote
            case .askQuote: askQuote
            case .position: position
            }
        }

        mutating func take(_ values: Values, step: Int) {
            mid.take(values.mid, step: step)
            bidQuote.take(values.bidQuote, step: step)
            askQuote.take(values.askQuote, step: step)
            position.take(values.position, step: step)
        }

        /// This column followed by `later`'s steps.
        mutating func merge(_ later: Column) {
            steps += later.steps
            lastNs = later.lastNs
            mid.merge(later.mid)
            bidQuote.merge(later.bidQuote)
            askQuote.merge(later.askQuote)
            position.merge(later.position)
        }
    }

    /// The state at a step; NaN for none.
    package typealias Values = (mid: Double, bidQuote: Double, askQuote: Double, position: Double)

    /// The most columns kept (even, at least 2).
    package let capacity: Int
    package private(set) var columns: [Column] = []
    /// Steps each column takes (a power of two).
    package private(set) var stepsPerColumn = 1
    /// Steps recorded.
    package private(set) var steps = 0

    /// - Parameter capacity: the most columns kept; 4,096 gives 2,048 to 4,096 columns, more than
    ///   a screen has pixels.
    package init(capacity: Int = 4096) {
        precondition(capacity >= 2 && capacity % 2 == 0, "the capacity must be even and at least 2")
        self.capacity = capacity
        columns.reserveCapacity(capacity)
    }

    /// Records the state at the next step, at local time `ns`.
    package mutating func record(at ns: Int64, _ values: Values) {
        if let last = columns.last, last.steps < stepsPerColumn {
            let i = columns.count - 1
            columns[i].steps += 1
            columns[i].lastNs = ns
            columns[i].take(values, step: steps)
        } else {
            if columns.count == capacity { halve() }
            var column = Column(firstStep: steps, steps: 1, firstNs: ns, lastNs: ns)
            column.take(values, step: steps)
            columns.append(column)
        }
        steps += 1
    }

    /// Merges neighbouring columns in pairs; each column then takes twice the steps.
    private mutating func halve() {
        var merged: [Column] = []
        merged.reserveCapacity(capacity)
        for k in stride(from: 0, to: columns.count, by: 2) {
            var c = columns[k]
            if k + 1 < columns.count { c.merge(columns[k + 1]) }
            merged.append(c)
        }
        columns = merged
        stepsPerColumn *= 2
    }
}
