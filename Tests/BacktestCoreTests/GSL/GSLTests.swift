import Foundation
import Testing
import TestSupport
@testable import BacktestCore

@Suite("GSL wrappers")
struct GSLTests {
    let x: [Double] = [2, 4, 4, 4, 5, 5, 7, 9]

    @Test("moments")
    func moments() {
        #expect(GSL.mean(x) == 5)
        #expect(close(GSL.standardDeviation(x), (32.0 / 7).squareRoot()))
        #expect(GSL.mean([]).isNaN && GSL.standardDeviation([1]).isNaN)
        #expect(abs(GSL.skew([1, 2, 3])) < 1e-15)
        #expect(GSL.kurtosis([1, 2, 3]).isNaN)
    }

    @Test("sum and total sum of squares")
    func sums() {
        x.withUnsafeBufferPointer { p in
            #expect(GSL.sum(p) == 40)
            #expect(GSL.totalSumOfSquares(p, mean: 5) == 32)
        }
        #expect([Double]().withUnsafeBufferPointer { GSL.sum($0) } == 0)
    }

    @Test("quantiles interpolate like numpy")
    func quantiles() {
        #expect(GSL.quantile(x, 0.5) == 4.5)
        #expect(GSL.quantile(x, 0.25) == 4)   // numpy.quantile(x, 0.25) = 4.0
        #expect(close(GSL.quantile(x, 0.05), 2.7)) // position 0.35 between 2 and 4
        #expect(GSL.sorted([3, 1, 2]) == [1, 2, 3])
    }

    @Test("linear fit and correlation")
    func fit() throws {
        let f = try GSL.fitLinear(x: [0, 1, 2, 3], y: [1, 3, 5, 7])
        #expect(close(f.intercept, 1) && close(f.slope, 2))
        #expect(close(GSL.correlation([1, 2, 3], [2, 4, 7]), 0.9933992677987828))
        #expect(throws: GSLError.self) { try GSL.fitLinear(x: [1], y: [1]) }
    }

    /// Samples for the one-pass versions: heavy-tailed returns with runs of zeros (flat bars),
    /// a constant series, tiny and huge scales, lengths from 1.
    static func samples() -> [[Double]] {
        var rng = SplitMix64(seed: 43)
        var out: [[Double]] = [[], [1], [1, 2], [1, 2, 4], [3, 3, 3, 3], [0, 0, 0, 0, 0]]
        for (n, scale) in [(5, 1.0), (17, 1e-3), (1_000, 0.02), (10_007, 1e3), (40_000, 1e-9)] {
            out.append((0..<n).map { i in
                let u = Double.random(in: -1...1, using: &rng)
                return i % 7 == 3 ? 0 : scale * u * u * u / (0.05 + abs(Double.random(in: -1...1, using: &rng)))
            })
        }
        return out
    }

    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    @Test("skew and kurtosis in one pass equal GSL's, bit for bit")
    func skewAndKurtosis() {
        for x in Self.samples() {
            let mean = GSL.mean(x), sd = GSL.standardDeviation(x, mean: mean)
            let both = GSL.skewAndKurtosis(x, mean: mean, sd: sd)
            #expect(Self.same(both.skew, GSL.skew(x, mean: mean, sd: sd)), "skew of \(x.count)")
            #expect(Self.same(both.kurtosis, GSL.kurtosis(x, mean: mean, sd: sd)), "kurtosis of \(x.count)")
        }
    }

    @Test("the moments and the line in three fused passes equal gsl_stats_mean, _sd_m, _skew, _kurtosis and gsl_fit_linear, bit for bit")
    func momentsAndLine() throws {
        let samples = Self.samples()
        for (k, y) in samples.enumerated() {
            let other = samples[(k + 3) % samples.count]
            let xs = Array(other.prefix(y.count)) + [Double](repeating: 0.5, count: max(0, y.count - other.count))
            let fused = y.withUnsafeBufferPointer { GSL.momentsAndLine(count: y.count, x: { xs[$0] }, y: $0) }
            let mean = GSL.mean(y)
            #expect(Self.same(fused.mean, mean), "mean of \(y.count)")
            #expect(Self.same(fused.sd, GSL.standardDeviation(y, mean: mean)) && Self.same(fused.sd, GSL.standardDeviation(y)),
                    "sd of \(y.count)")
            #expect(Self.same(fused.skew, GSL.skew(y)), "skew of \(y.count)")
            #expect(Self.same(fused.kurtosis, GSL.kurtosis(y)), "kurtosis of \(y.count)")
            let fit = try? GSL.fitLinear(x: xs, y: y)
            #expect((fit == nil) == (fused.line == nil), "line of \(y.count)")
            if let fit, let line = fused.line {
                #expect(Self.same(fit.intercept, line.intercept) && Self.same(fit.slope, line.slope), "line of \(y.count)")
            }
        }
    }

    @Test("the two-pass line equals gsl_fit_linear's intercept and slope, bit for bit, and fails where it fails")
    func line() throws {
        let samples = Self.samples()
        for (k, y) in samples.enumerated() {
            let x = samples[(k + 3) % samples.count].prefix(y.count) + [Double](repeating: 0.5, count: max(0, y.count - samples[(k + 3) % samples.count].count))
            let xs = Array(x)
            let fit = try? GSL.fitLinear(x: xs, y: y)
            let line = try? y.withUnsafeBufferPointer { yb in try GSL.line(count: y.count, x: { xs[$0] }, y: yb) }
            #expect((fit == nil) == (line == nil), "\(y.count) values")
            if let fit, let line {
                #expect(Self.same(fit.intercept, line.intercept) && Self.same(fit.slope, line.slope), "\(y.count) values")
            }
        }
    }

    @Test("normal distribution")
    func normal() {
        #expect(GSL.normalCDF(0) == 0.5)
        #expect(close(GSL.normalCDF(1.959963984540054), 0.975))
        #expect(close(GSL.normalQuantile(0.975), 1.959963984540054))
    }

    @Test("histogram counts, maximum in the last bin, bad range throws")
    func histogram() throws {
        let h = try GSL.histogram([0, 0.5, 1, 1.5, 2, .nan], bins: 2, lower: 0, upper: 2)
        #expect(h == [2, 3])
        #expect(throws: GSLError.self) { try GSL.histogram([1], bins: 2, lower: 1, upper: 1) }
    }

    @Test("random numbers repeat for a seed")
    func random() {
        let a = GSL.Random(seed: 3), b = GSL.Random(seed: 3)
        #expect((0..<5).map { _ in a.uniform() } == (0..<5).map { _ in b.uniform() })
    }

    @Test("a prepared uniform int draws what gsl_rng_uniform_int draws", arguments: [1, 2, 3, 7, 2_148, 5_000, 65_537, 1 << 31, Int(UInt32.max)])
    func uniformIntSampler(n: Int) {
        let a = GSL.Random(seed: 42), b = GSL.Random(seed: 42), u = GSL.UniformInt(below: n)
        let fast = (0..<20_000).map { _ in a.int(u) }
        let gsl = (0..<20_000).map { _ in b.int(below: n) }
        #expect(zip(fast, gsl).filter { $0 != $1 }.count == 0, "draws differ from gsl_rng_uniform_int")
        #expect(fast.allSatisfy { $0 >= 0 && $0 < n })
        #expect(a.uniform() == b.uniform(), "both generators end in the same state")
    }

    @Test("the reciprocal divides every 32-bit numerator exactly")
    func reciprocalDivision() {
        var rng = SplitMix64(seed: 3), wrong = 0
        for n in [1, 2, 3, 5, 7, 10, 13, 1_000, 2_148, 65_535, 1 << 20, 1 << 31, Int(UInt32.max) - 1, Int(UInt32.max)] {
            let u = GSL.UniformInt(below: n), scale = UInt64(UInt32.max) / UInt64(n)
            let edges: [UInt64] = [0, 1, scale - 1, scale, scale + 1, UInt64(UInt32.max) - 1, UInt64(UInt32.max)]
            for m in edges + (0..<2_000).map({ _ in rng.next() & 0xffff_ffff }) {
                if u.quotient(m) != m / scale { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test("a prepared geometric (threshold table) draws what gsl_ran_geometric draws",
          arguments: [1.0, 1 - 1e-12, 0.5, 1.0 / 13, 1.0 / 17, 1.0 / 100, 1e-3, 1e-9])
    func geometricSampler(p: Double) {
        let a = GSL.Random(seed: 11), b = GSL.Random(seed: 11)
        let g = GSL.Geometric(p: p)
        let draws = p == 1.0 / 13 ? 2_000_000 : 100_000
        var differ = 0, smallest = Int.max
        for _ in 0..<draws {
            let x = a.geometric(g), y = b.geometric(p: p)
            if x != y { differ += 1 }
            smallest = min(smallest, x)
        }
        #expect(differ == 0, "\(differ) of \(draws) draws differ from gsl_ran_geometric")
        #expect(smallest >= 1)
        #expect(a.uniform() == b.uniform(), "both generators end in the same state")
    }

    @Test("the table's boundaries are GSL's: each threshold gives its length, the next draw one less")
    func geometricBoundaries() {
        for p in [0.5, 1.0 / 13, 1.0 / 17, 1e-3] {
            let g = GSL.Geometric(p: p)
            #expect(g.complete == (p > 1e-2), "p \(p): table complete \(g.complete) with \(g.thresholds.count) entries")
            for (j, t) in g.thresholds.enumerated() {
                let gsl = Int(UInt32(GSL.Geometric.formula(t, logQ: g.logQ)))
                #expect(g.draw(t) == gsl && gsl >= j + 2)
                if t < UInt32.max { #expect(g.draw(t + 1) == Int(UInt32(GSL.Geometric.formula(t + 1, logQ: g.logQ)))) }
            }
            #expect(g.draw(UInt32.max) == 1 && g.draw(1) == Int(UInt32(GSL.Geometric.formula(1, logQ: g.logQ))))
        }
    }

    @Test("every bucket's edges draw GSL's length, with a complete table and without one",
          arguments: [1.0 / 17, 1.0 / 100, 1.0 / 215, 1e-3])
    func geometricBucketEdges(p: Double) {
        let g = GSL.Geometric(p: p)
        func gsl(_ m: UInt32) -> Int { Int(UInt32(GSL.Geometric.formula(m, logQ: g.logQ))) }
        var wrong = 0, fast = 0
        for b in 0..<g.buckets.count {
            let low = UInt32(b) << GSL.Geometric.bucketShift, top = low | ((1 << GSL.Geometric.bucketShift) - 1)
            for m in [max(low, 1), low &+ 1, top / 2 + low / 2, top &- 1, top] where m > 0 {
                if g.draw(m) != gsl(m) { wrong += 1 }
            }
            if g.buckets[b] & GSL.Geometric.several == 0 { fast += 1 }
        }
        #expect(wrong == 0)
        // Most draws take one lookup (a draw's m is uniform over the buckets): all but the
        // buckets of the longest blocks, where lengths change within a bucket.
        let share = Double(fast) / Double(g.buckets.count)
        #expect(share >= (p >= 0.01 ? 0.95 : 0.6), "\(fast) of \(g.buckets.count) buckets answer with one lookup")
    }
}

@Suite("GSL lower tail without a full sort")
struct GSLLowerTailTests {
    @Test("the quantile and the mean below it equal the sorted data's, bit for bit", arguments: [1, 2, 3, 20, 101, 1_000, 4_321])
    func equalsSorted(_ n: Int) {
        var state = UInt64(n)
        let x = (0..<n).map { i -> Double in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // Ties every few values, both signs, a spread of magnitudes.
            return i % 5 == 0 ? 0.25 : Double(Int64(bitPattern: state) >> 20) / 3e12
        }
        let sorted = GSL.sorted(x)
        for f in [0, 0.01, 0.05, 0.5, 0.95, 1] {
            let tail = GSL.lowerTail(x, f)
            let q = GSL.quantile(sorted: sorted, f)
            let below = sorted.prefix { $0 <= q }
            #expect(tail.quantile.bitPattern == q.bitPattern, "n \(n), f \(f): \(tail.quantile) against \(q)")
            #expect(tail.mean.bitPattern == GSL.mean(Array(below)).bitPattern, "n \(n), f \(f)")
        }
        #expect(GSL.lowerTail([], 0.05).quantile.isNaN)
    }
}

@Suite("GSL moments from a mean and deviation already computed")
struct GSLMomentsTests {
    @Test("skew and kurtosis from the mean and sd equal GSL's own, bit for bit; so does the PSR")
    func sameBits() {
        for n in [0, 3, 4, 5, 50, 10_001] {
            let x = (0..<n).map { i in sin(Double(i) * 0.37) * 0.01 + Double(i % 7) * 1e-4 }
            let mean = GSL.mean(x), sd = GSL.standardDeviation(x, mean: mean)
            let a = GSL.skew(x), b = GSL.skew(x, mean: mean, sd: sd)
            let c = GSL.kurtosis(x), d = GSL.kurtosis(x, mean: mean, sd: sd)
            #expect(a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN), "skew, n \(n)")
            #expect(c.bitPattern == d.bitPattern || (c.isNaN && d.isNaN), "kurtosis, n \(n)")
        }
    }
}

@Suite("GSL median by selection")
struct GSLMedianTests {
    @Test("the median equals the sorted data's middle (or the mean of the two middles), bit for bit", arguments: [1, 2, 3, 4, 11, 1_000, 1_001])
    func middle(_ n: Int) {
        var state = UInt64(n) &+ 99
        let x = (0..<n).map { i -> Double in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return i % 4 == 0 ? 1.5 : Double(Int64(bitPattern: state) >> 22) / 7e9
        }
        let v = x.sorted()
        let want = v.count % 2 == 1 ? v[v.count / 2] : (v[v.count / 2 - 1] + v[v.count / 2]) / 2
        #expect(GSL.median(x).bitPattern == want.bitPattern, "n \(n)")
        #expect(GSL.median([]).isNaN)
    }

    @Test("Cholesky: solves A x = b and L X = B, log det; a matrix that is not positive definite is refused")
    func cholesky() throws {
        // A = L L^T with L = [[2, 0, 0], [1, 3, 0], [-1, 2, 1]]: det A = (2 * 3 * 1)^2 = 36.
        let a: [Double] = [4, 2, -2, 2, 10, 5, -2, 5, 6]
        let c = try GSL.Cholesky(symmetric: a, size: 3)
        #expect(close(c.logDeterminant, Foundation.log(36)))
        let x = try c.solve([2, 17, 9])  // checked by multiplying back
        let ax = (0..<3).map { i in (0..<3).reduce(0.0) { $0 + a[i * 3 + $1] * x[$1] } }
        #expect(zip(ax, [2.0, 17, 9]).allSatisfy { abs($0 - $1) < 1e-12 })
        // L X = B for B = L (the identity back), two columns of it.
        let l: [Double] = [2, 0, 1, 3, -1, 2]  // the first two columns of L, row-major 3 x 2
        let v = try c.lowerSolve(l, columns: 2)
        #expect(zip(v, [1.0, 0, 0, 1, 0, 0]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(throws: GSLError.self) { try GSL.Cholesky(symmetric: [1, 2, 2, 1], size: 2) }
    }

    @Test("normal density")
    func normalPDF() {
        #expect(close(GSL.normalPDF(0), 1 / (2 * Double.pi).squareRoot()))
        #expect(close(GSL.normalPDF(1.5), Foundation.exp(-1.125) / (2 * Double.pi).squareRoot()))
    }
}
