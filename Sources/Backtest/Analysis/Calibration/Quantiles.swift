/// The small statistics of calibration, as numpy and the research prototypes compute them.
enum Quantiles {
    /// Linear interpolation between order statistics (Hyndman-Fan type 7, numpy's default):
    /// sorted v[0..n-1], h = (n − 1)q, v[⌊h⌋] + (h − ⌊h⌋)(v[⌊h⌋+1] − v[⌊h⌋]). NaN when empty.
    static func type7(_ values: [Double], _ q: Double) -> Double {
        let v = values.sorted()
        guard !v.isEmpty else { return .nan }
        let h = Double(v.count - 1) * q
        let lo = Int(h.rounded(.down))
        let hi = min(lo + 1, v.count - 1)
        return v[lo] + (h - Double(lo)) * (v[hi] - v[lo])
    }

    /// The smallest value whose cumulative weight reaches q of the total (pairs sorted by value,
    /// then weight). NaN when empty.
    static func weighted(_ pairs: [(value: Double, weight: Double)], _ q: Double) -> Double {
        let sorted = pairs.sorted { $0.value != $1.value ? $0.value < $1.value : $0.weight < $1.weight }
        guard let last = sorted.last else { return .nan }
        let total = sorted.reduce(0) { $0 + $1.weight }
        var acc = 0.0
        for p in sorted {
            acc += p.weight
            if acc >= q * total - 1e-9 * total { return p.value }
        }
        return last.value
    }

    /// Spearman rank correlation with average ranks for ties; nil when a side has no variance or
    /// fewer than two points.
    static func spearman(_ x: [Double], _ y: [Double]) -> Double? {
        precondition(x.count == y.count, "spearman needs paired values")
        guard x.count >= 2 else { return nil }
        func ranks(_ a: [Double]) -> [Double] {
            let order = a.indices.sorted { a[$0] != a[$1] ? a[$0] < a[$1] : $0 < $1 }
            var r = [Double](repeating: 0, count: a.count)
            var i = 0
            while i < a.count {
                var j = i
                while j + 1 < a.count && a[order[j + 1]] == a[order[i]] { j += 1 }
                for k in i...j { r[order[k]] = Double(i + j) / 2 + 1 }
                i = j + 1
            }
            return r
        }
        let rx = ranks(x), ry = ranks(y)
        let n = Double(x.count)
        let mx = rx.reduce(0, +) / n, my = ry.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for i in rx.indices {
            sxy += (rx[i] - mx) * (ry[i] - my)
            sxx += (rx[i] - mx) * (rx[i] - mx)
            syy += (ry[i] - my) * (ry[i] - my)
        }
        guard sxx > 0, syy > 0 else { return nil }
        return sxy / (sxx * syy).squareRoot()
    }
}
