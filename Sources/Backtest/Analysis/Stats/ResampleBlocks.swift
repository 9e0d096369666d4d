import BacktestCore
import Foundation

extension Uncertainty {
    /// Every resample's blocks of a Sharpe bootstrap (`sharpeInterval`) for one series length,
    /// drawn once.
    ///
    /// The blocks depend on the series' length and the settings (seed, resamples, mean block
    /// length), never on the returns, so the symbols of a screen with equally long histories
    /// draw the same blocks: two Mersenne Twister draws a block, ~294,000 blocks for 5,000
    /// returns, most of a screen's statistics time. Drawn once, each series only sums them.
    /// Memory: 8 bytes a block (n / L blocks a resample, L the mean block length), so 2.4 MB for
    /// 1,000 resamples of 5,000 returns.
    public struct ResampleBlocks: Sendable {
        /// The series length the blocks were drawn for.
        public let seriesCount: Int
        public let bootstrap: Bootstrap
        /// Every resample's blocks, resample after resample.
        let run: BlockRun

        /// Draws the blocks of `bootstrap.resamples` resamples of a series of `seriesCount`
        /// returns (at least 3: shorter series have no interval, and need no blocks).
        public init(seriesCount n: Int, bootstrap: Bootstrap = .standard) {
            var draws = RawDraws(GSL.Random(seed: bootstrap.seed))
            self.init(seriesCount: n, bootstrap: bootstrap, draws: &draws)
        }

        /// The blocks drawn from `tape`'s outputs (its seed is `bootstrap.seed`): the same blocks.
        package init(seriesCount n: Int, bootstrap: Bootstrap, tape: GSL.DrawTape) {
            precondition(tape.seed == bootstrap.seed, "resample blocks: the tape's seed is not the bootstrap's")
            var reader = RawDraws(tape)
            self.init(seriesCount: n, bootstrap: bootstrap, draws: &reader)
        }

        private init(seriesCount n: Int, bootstrap: Bootstrap, draws: inout RawDraws) {
            precondition(n > 2 && UInt64(n) <= UInt64(UInt32.max), "resample blocks: the series length must be in 3...2^32 - 1")
            seriesCount = n
            self.bootstrap = bootstrap
            var run = BlockRun()
            run.reserve(blocks: Self.expectedBlocks(seriesCount: n, bootstrap: bootstrap), resamples: bootstrap.resamples)
            run.draw(bootstrap.resamples, Resampler(count: n, bootstrap: bootstrap), &draws)
            self.run = run
        }

        /// Bytes the blocks hold.
        public var byteCount: Int { run.byteCount }

        /// About how many blocks `init` draws: n / L a resample, plus the last, cut one.
        public static func expectedBlocks(seriesCount n: Int, bootstrap: Bootstrap) -> Int {
            let length = max(1, bootstrap.meanBlockLength ?? max(1, cbrt(Double(n)).rounded()))
            return bootstrap.resamples * (Int((Double(n) / length).rounded(.up)) + 1)
        }
    }

    /// The blocks of consecutive resamples: each block's (start, length) in order, and where
    /// each resample's blocks end.
    struct BlockRun {
        private(set) var blocks: [SIMD2<UInt32>] = []
        /// `ends[r]` is the index in `blocks` past resample r's last block.
        private(set) var ends: [Int] = []

        var resamples: Int { ends.count }
        var byteCount: Int { blocks.count * MemoryLayout<SIMD2<UInt32>>.stride + ends.count * MemoryLayout<Int>.stride }

        mutating func reserve(blocks: Int, resamples: Int) {
            self.blocks.reserveCapacity(blocks)
            ends.reserveCapacity(resamples)
        }

        mutating func removeAll() {
            blocks.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
        }

        /// Appends the blocks of the next `count` resamples `resampler` draws from `draws`.
        mutating func draw(_ count: Int, _ resampler: Resampler, _ draws: inout RawDraws) {
            for _ in 0..<count {
                resampler.drawResample(&draws) { start, k in
                    blocks.append(SIMD2(UInt32(truncatingIfNeeded: start), UInt32(truncatingIfNeeded: k)))
                }
                ends.append(blocks.count)
            }
        }

        /// Resample r's (sum, sum of squares) of the shifted returns whose prefix sums are
        /// `sums`, its blocks added in order.
        @inline(__always)
        func total(_ r: Int, _ sums: UnsafeBufferPointer<SIMD2<Double>>) -> SIMD2<Double> {
            blocks.withUnsafeBufferPointer { drawn in
                var total = SIMD2<Double>()
                for b in (r == 0 ? 0 : ends[r &- 1])..<ends[r] {
                    total += ShiftedPrefixSums.block(sums, start: Int(drawn[b][0]), count: Int(drawn[b][1]))
                }
                return total
            }
        }
    }

    /// The bootstrap work shared by the series of one job (a screen's symbols), which all use
    /// the same settings and so the same Mersenne Twister sequence:
    ///
    /// - the generator's outputs are drawn once, on a tape every series reads (`GSL.DrawTape`,
    ///   up to `tapeBudget` bytes); a series longer than that draws its own;
    /// - a length's blocks are drawn (from the tape) by the second series of that length and
    ///   kept for the rest (who wait while they are drawn), up to about `budget` bytes in all; a
    ///   length seen once, or past the budget, reads the tape (keeping blocks no other series
    ///   reads would only cost their storing).
    ///
    /// Every way gives the interval of `sharpeInterval(_:periodsPerYear:bootstrap:)`, bit for bit.
    /// Safe to use from parallel jobs.
    public final class SharedResamples: @unchecked Sendable {
        public let bootstrap: Bootstrap
        /// Most bytes of blocks kept (checked against each length's expected size before it is drawn).
        public let budget: Int
        /// Most bytes of generator outputs kept on the tape (4 a draw).
        public let tapeBudget: Int
        private let tape: GSL.DrawTape

        /// A length's blocks: asked for once, being drawn by one job, or kept.
        private enum Entry { case seen, drawing, kept(ResampleBlocks) }
        /// Guards `entries` and `bytes`; jobs wait on it while a length's blocks are drawn.
        private let condition = NSCondition()
        private var entries: [Int: Entry] = [:]
        private var bytes = 0

        /// - Parameters:
        ///   - budget: most bytes of blocks kept, 64 MB by default (27 lengths of 5,000 returns
        ///     at 1,000 resamples; one length of about 2 million returns).
        ///   - tapeBudget: most bytes of generator outputs, 16 MB by default (series up to about
        ///     90,000 returns at 1,000 resamples).
        public init(bootstrap: Bootstrap = .standard, budget: Int = 64 << 20, tapeBudget: Int = 16 << 20) {
            self.bootstrap = bootstrap
            self.budget = budget
            self.tapeBudget = tapeBudget
            tape = GSL.DrawTape(seed: bootstrap.seed)
        }

        /// The Sharpe interval of `returns` (`Uncertainty.sharpeInterval`): from the blocks of its
        /// length when they are kept or its length was asked for before and they fit, else from
        /// the tape when it fits, else drawn as for a single series.
        public func sharpeInterval(_ returns: [Double], periodsPerYear: Double) -> (low: Double, high: Double) {
            let n = returns.count
            guard n > 2 else { return Uncertainty.sharpeInterval(returns, periodsPerYear: periodsPerYear, bootstrap: bootstrap) }
            if let blocks = blocks(seriesCount: n) {
                return Uncertainty.sharpeInterval(returns, periodsPerYear: periodsPerYear, blocks: blocks)
            }
            if fitsTape(n) {
                return Uncertainty.sharpeInterval(returns, periodsPerYear: periodsPerYear, bootstrap: bootstrap, tape: tape)
            }
            return Uncertainty.sharpeInterval(returns, periodsPerYear: periodsPerYear, bootstrap: bootstrap)
        }

        /// Whether the draws for `n` returns fit on the tape.
        func fitsTape(_ n: Int) -> Bool {
            Resampler.expectedDraws(seriesCount: n, bootstrap: bootstrap) * MemoryLayout<UInt32>.stride <= tapeBudget
        }

        /// The blocks for `n` returns: nil the first time `n` is asked for (that series reads the
        /// tape) and when they would not fit; drawn and kept by the second asker; the kept ones
        /// for every later asker, who waits while they are drawn. So the work does not depend
        /// on how the jobs interleave: one tape read, one draw, then sums (what
        /// `make perf-check` counts).
        func blocks(seriesCount n: Int) -> ResampleBlocks? {
            let estimate = ResampleBlocks.expectedBlocks(seriesCount: n, bootstrap: bootstrap) * MemoryLayout<SIMD2<UInt32>>.stride
            condition.lock()
            while true {
                switch entries[n] {
                case nil:
                    entries[n] = .seen
                    condition.unlock()
                    return nil
                case .kept(let blocks):
                    condition.unlock()
                    return blocks
                case .drawing:
                    condition.wait()
                case .seen:
                    guard bytes + estimate <= budget else { condition.unlock(); return nil }
                    entries[n] = .drawing
                    bytes += estimate
                    condition.unlock()
                    let drawn = fitsTape(n) ? ResampleBlocks(seriesCount: n, bootstrap: bootstrap, tape: tape)
                                            : ResampleBlocks(seriesCount: n, bootstrap: bootstrap)
                    condition.lock()
                    entries[n] = .kept(drawn)
                    bytes += drawn.byteCount - estimate
                    condition.broadcast()
                    condition.unlock()
                    return drawn
                }
            }
        }

        /// How many lengths are kept (for tests and diagnostics).
        public var keptLengths: Int {
            condition.lock()
            defer { condition.unlock() }
            return entries.values.filter { if case .kept = $0 { true } else { false } }.count
        }

        /// Generator outputs on the tape so far (for tests and diagnostics).
        public var tapeDraws: Int { tape.count }
    }
}
