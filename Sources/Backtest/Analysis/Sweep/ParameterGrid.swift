import BacktestCore
import Foundation

/// A grid of parameter values to sweep: the Cartesian product of one axis per parameter,
/// addressed by a flat index so that combinations stream without being materialised.
public struct ParameterGrid: Sendable, Equatable {
    /// One swept parameter and its values, in order.
    public struct Axis: Sendable, Equatable {
        public var name: String
        public var values: [Double]
        public init(name: String, values: [Double]) {
            self.name = name
            self.values = values
        }
    }

    public var axes: [Axis]

    /// The most combinations a parsed grid may have (before `--where`-style filtering, which
    /// must visit every one).
    public static let maximumCombinations = 10_000_000
    /// The most values one axis may have.
    public static let maximumValuesPerAxis = 1_000_000

    public init(axes: [Axis]) { self.axes = axes }

    /// Parses grid specs: `name=start:stop:step` (stop inclusive), `name=a,b,c`, or `name=v`;
    /// values in percent (`sl=2%:10%:2%`) are fractions (0.02, ..., 0.1).
    /// Sizes are counted before anything is allocated, without overflow: an axis of more than
    /// `maximumValuesPerAxis` values or a grid of more than `maximumCombinations` is refused.
    /// - Throws: `InputError` for malformed specs, a non-positive step, an empty or huge axis, a
    ///   huge grid, or a parameter given twice.
    public init(parsing specs: [String]) throws {
        // Sizes first (no value is made yet), then the values.
        var parsed: [ParsedAxis] = []
        var total = 1.0
        for spec in specs {
            let axis = try Self.parseAxis(spec)
            if parsed.contains(where: { $0.name == axis.name }) {
                throw InputError("parameter '\(axis.name)' given twice", setting: .grid)
            }
            total *= Double(axis.count)
            if total > Double(Self.maximumCombinations) {
                throw InputError("the grid has \(String(format: "%.3g", total)) combinations or more; at most "
                                     + "\(Self.maximumCombinations) can be swept", setting: .grid)
            }
            parsed.append(axis)
        }
        self.init(axes: parsed.map { Axis(name: $0.name, values: $0.values()) })
    }

    /// An axis whose size is known and whose values are made on demand.
    struct ParsedAxis {
        var name: String
        var count: Int
        var values: () -> [Double]
    }

    static func parseAxis(_ spec: String) throws -> ParsedAxis {
        let (name, body) = try nameAndBody(spec)
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        // Percentages (`sl=2%:10%:2%`): the values are fractions (0.02 ... 0.1), stepped in
        // percent so they do not drift.
        let (numbers, percent) = try Self.numbers(parts.count == 1 ? body.split(separator: ",", omittingEmptySubsequences: false) : parts,
                                                  spec: spec)
        let scale = percent ? 100.0 : 1
        if parts.count == 3 {
            let start = numbers[0], stop = numbers[1], step = numbers[2]
            guard step > 0 else { throw InputError("step must be positive", setting: .grid, value: spec) }
            guard stop >= start else { throw InputError("stop is below start", setting: .grid, value: spec) }
            // Counted as a Double first: (stop - start) / step can be 1e300 or infinite.
            let steps = ((stop - start) / step + 1e-9).rounded(.down)
            guard steps.isFinite, steps < Double(Self.maximumValuesPerAxis) else {
                throw InputError("more than \(Self.maximumValuesPerAxis) values", setting: .grid, value: spec)
            }
            let n = Int(steps) + 1
            // start + k*step, not repeated addition, so values do not drift; then 12 significant
            // digits, so 0.1:0.3:0.1 gives 0.3, not 0.30000000000000004.
            return ParsedAxis(name: name, count: n) {
                (0..<n).map { NumberText.twelveSignificantDigits((start + Double($0) * step) / scale) }
            }
        } else if parts.count == 1 {
            guard numbers.count <= Self.maximumValuesPerAxis else {
                throw InputError("more than \(Self.maximumValuesPerAxis) values", setting: .grid, value: spec)
            }
            return ParsedAxis(name: name, count: numbers.count) { numbers.map { percent ? NumberText.twelveSignificantDigits($0 / scale) : $0 } }
        } else if parts.count == 2 {
            throw InputError("start:stop has no step: a grid needs start:stop:step (a range without a step is drawn from "
                             + "by \(Setting.search.mention) random)", setting: .grid, value: spec)
        } else {
            throw InputError("expected start:stop:step", setting: .grid, value: spec)
        }
    }

    /// The name and the text after `=` of an axis's spec.
    static func nameAndBody(_ spec: String) throws -> (name: String, body: String) {
        guard let eq = spec.firstIndex(of: "="), eq != spec.startIndex else {
            throw InputError("expected name=start:stop:step or name=a,b,c", setting: .grid, value: spec)
        }
        return (String(spec[..<eq]).trimmingSpaces, String(spec[spec.index(after: eq)...]))
    }

    /// The numbers of an axis's `parts` (its range's ends and step, or its list), as typed: in
    /// percent when every one carries '%' (`percent` is then true), plain when none does.
    static func numbers(_ parts: [Substring], spec: String) throws -> (numbers: [Double], percent: Bool) {
        let percent = parts.contains { $0.contains("%") }
        let numbers = try parts.map { s -> Double in
            var text = String(s).trimmingSpaces
            if percent {
                guard text.hasSuffix("%") else {
                    throw InputError("\(Excerpt.quoted(text)): give every value of an axis in percent, or none",
                                     setting: .grid, value: spec)
                }
                text.removeLast()
            }
            guard let v = Double(text), v.isFinite else {
                throw InputError("\(Excerpt.quoted(String(s))) is not a number", setting: .grid, value: spec)
            }
            return v
        }
        guard !numbers.isEmpty else { throw InputError("no values", setting: .grid, value: spec) }
        return (numbers, percent)
    }

    /// Number of combinations (product of the axis sizes); `Int.max` when the product does not
    /// fit (only a grid built from axes directly can be that large: parsing refuses it).
    public var count: Int {
        var n = 1
        for axis in axes {
            let (product, overflow) = n.multipliedReportingOverflow(by: axis.values.count)
            if overflow { return .max }
            n = product
        }
        return n
    }

    /// The flat indexes whose combination, completed by `defaults` for the parameters not
    /// swept, satisfies `filter`, in grid order. One pass with one reused dictionary and an
    /// odometer over the axes: no allocation per combination.
    /// - Precondition: `count` is at most `maximumCombinations`.
    public func indexes(where filter: ([String: Double]) -> Bool, defaults: [String: Double] = [:]) -> [Int] {
        let n = count
        precondition(n <= Self.maximumCombinations, "grid too large to filter")
        var values = defaults
        var digits = [Int](repeating: 0, count: axes.count)
        for axis in axes { values[axis.name] = axis.values[0] }
        var out: [Int] = []
        for index in 0..<n {
            if filter(values) { out.append(index) }
            // Next combination: the last axis varies fastest.
            var k = axes.count - 1
            while k >= 0 {
                digits[k] += 1
                if digits[k] < axes[k].values.count {
                    values[axes[k].name] = axes[k].values[digits[k]]
                    break
                }
                digits[k] = 0
                values[axes[k].name] = axes[k].values[0]
                k -= 1
            }
        }
        return out
    }

    /// The values of the combination at flat `index`, one per axis in axis order, last axis
    /// varying fastest.
    public func values(at index: Int) -> [Double] {
        var values = [Double](repeating: 0, count: axes.count)
        var rest = index
        for k in axes.indices.reversed() {
            values[k] = axes[k].values[rest % axes[k].values.count]
            rest /= axes[k].values.count
        }
        return values
    }

    /// The combination at flat `index`, last axis varying fastest, as name -> value.
    public func combination(at index: Int) -> [String: Double] {
        var result: [String: Double] = [:]
        var rest = index
        for axis in axes.reversed() {
            result[axis.name] = axis.values[rest % axis.values.count]
            rest /= axis.values.count
        }
        return result
    }

    /// The per-axis value indexes of the combination at flat `index`.
    public func coordinates(at index: Int) -> [Int] {
        var coords = [Int](repeating: 0, count: axes.count)
        var rest = index
        for k in axes.indices.reversed() {
            coords[k] = rest % axes[k].values.count
            rest /= axes[k].values.count
        }
        return coords
    }
}
