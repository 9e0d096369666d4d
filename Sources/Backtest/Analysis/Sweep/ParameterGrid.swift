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

    public init(axes: [Axis]) { self.axes = axes }

    /// Parses grid specs: `name=start:stop:step` (stop inclusive), `name=a,b,c`, or `name=v`.
    /// - Throws: `InputError` for malformed specs, a non-positive step, an empty or huge axis, or a
    ///   parameter given twice.
    public init(parsing specs: [String]) throws {
        var axes: [Axis] = []
        for spec in specs {
            let axis = try Self.parseAxis(spec)
            if axes.contains(where: { $0.name == axis.name }) {
                throw InputError("parameter '\(axis.name)' given twice", setting: .grid)
            }
            axes.append(axis)
        }
        self.init(axes: axes)
    }

    static func parseAxis(_ spec: String) throws -> Axis {
        guard let eq = spec.firstIndex(of: "="), eq != spec.startIndex else {
            throw InputError("expected name=start:stop:step or name=a,b,c", setting: .grid, value: spec)
        }
        let name = String(spec[..<eq]).trimmingSpaces
        let body = String(spec[spec.index(after: eq)...])
        func number(_ s: Substring) throws -> Double {
            guard let v = Double(String(s).trimmingSpaces), v.isFinite else {
                throw InputError("'\(s)' is not a number", setting: .grid, value: spec)
            }
            return v
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        var values: [Double] = []
        if parts.count == 3 {
            let start = try number(parts[0]), stop = try number(parts[1]), step = try number(parts[2])
            guard step > 0 else { throw InputError("step must be positive", setting: .grid, value: spec) }
            guard stop >= start else { throw InputError("stop is below start", setting: .grid, value: spec) }
            let n = Int(((stop - start) / step + 1e-9).rounded(.down)) + 1
            guard n <= 1_000_000 else { throw InputError("more than 1,000,000 values", setting: .grid, value: spec) }
            // start + k*step, not repeated addition, so values do not drift; then 12 significant
            // digits, so 0.1:0.3:0.1 gives 0.3, not 0.30000000000000004.
            values = (0..<n).map { Double(String(format: "%.12g", start + Double($0) * step))! }
        } else if parts.count == 1 {
            values = try body.split(separator: ",", omittingEmptySubsequences: false).map(number)
        } else {
            throw InputError("expected start:stop:step", setting: .grid, value: spec)
        }
        guard !values.isEmpty else { throw InputError("no values", setting: .grid, value: spec) }
        return Axis(name: name, values: values)
    }

    /// Number of combinations (product of the axis sizes).
    public var count: Int { axes.reduce(1) { $0 * $1.values.count } }

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
