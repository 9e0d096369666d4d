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
        /// (start, length) of every block, resample after resample.
        let blocks: [SIMD2<UInt32>]
        /// `resampleEnds[r]` is the index in `blocks` past resample r's last block.
        let resampleEnds: [Int]

        /// Draws the blocks of `bootstrap.resamples` resamples of a series of `seriesCount`
        /// returns (at least 3: shorter series have no interval, and need no blocks).
        public init(seriesCount n: Int, bootstrap: Bootstrap = .standard) {
            precondition(n > 2 && UInt64(n) <= UInt64(UInt32.max), "resample blocks: the series length must be in 3...2^32 - 1")
            seriesCount = n
            self.bootstrap = bootstrap
            let resampler = Resampler(count: n, bootstrap: bootstrap)
            var blocks: [SIMD2<UInt32>] = []
            blocks.reserveCapacity(Self.expectedBlocks(seriesCount: n, bootstrap: bootstrap))
            var ends: [Int] = []
            ends.reserveCapacity(bootstrap.resamples)
            for _ in 0..<bootstrap.resamples {
                resampler.drawResample { start, k in
                    blocks.append(SIMD2(UInt32(truncatingIfNeeded: start), UInt32(truncatingIfNeeded: k)))
                }
                ends.append(blocks.count)
            }
            self.blocks = blocks
            resampleEnds = ends
        }

        /// Bytes the blocks hold.
        public var byteCount: Int { blocks.count * MemoryLayout<SIMD2<UInt32>>.stride + resampleEnds.count * MemoryLayout<Int>.stride }

        /// About how many blocks `init` draws: n / L a resample, plus the last, cut one.
        public static func expectedBlocks(seriesCount n: Int, bootstrap: Bootstrap) -> Int {
            let length = max(1, bootstrap.meanBlockLength ?? max(1, cbrt(Double(n)).rounded()))
            return bootstrap.resamples * (Int((Double(n) / length).rounded(.up)) + 1)
        }
    }

    /// Resample blocks shared by the series of one job (a screen's symbols): each length's
    /// blocks are drawn by the first series of that length and kept for the rest, up to
    /// `budget` bytes in all. A length whose blocks would not fit is bootstrapped as a single
    /// series is (`sharpeInterval(_:periodsPerYear:bootstrap:)`): the same interval either way.
    /// Safe to use from parallel jobs.
    public final class SharedResamples: Sendable {
        public let bootstrap: Bootstrap
        /// Most bytes of blocks kept.
        public let budget: Int
        private let kept = Locked<(byLength: [Int: ResampleBlocks], bytes: Int)>(([:], 0))

        /// - Parameter budget: most bytes kept, 64 MB by default (27 lengths of 5,000 returns
        ///   at 1,000 resamples; one length of about 2 million returns).
        public init(bootstrap: Bootstrap = .standard, budget: Int = 64 << 20) {
            self.bootstrap = bootstrap
            self.budget = budget
        }

        /// The Sharpe interval of `returns` (`Uncertainty.sharpeInterval`), from the kept
        /// blocks of its length when there are some or room for them.
        public func sharpeInterval(_ returns: [Double], periodsPerYear: Double) -> (low: Double, high: Double) {
            guard returns.count > 2, let blocks = blocks(seriesCount: returns.count) else {
                return Uncertainty.sharpeInterval(returns, periodsPerYear: periodsPerYear, bootstrap: bootstrap)
            }
            return Uncertainty.sharpeInterval(returns, periodsPerYear: periodsPerYear, blocks: blocks)
        }

        /// The blocks for `n` returns: kept, or drawn and kept; nil when they would not fit.
        /// Two jobs asking for a new length at once may both draw it (the same blocks); one is kept.
        func blocks(seriesCount n: Int) -> ResampleBlocks? {
            if let found = kept.withLock({ $0.byLength[n] }) { return found }
            let estimate = ResampleBlocks.expectedBlocks(seriesCount: n, bootstrap: bootstrap) * MemoryLayout<SIMD2<UInt32>>.stride
            guard kept.withLock({ $0.bytes + estimate <= budget }) else { return nil }
            let drawn = ResampleBlocks(seriesCount: n, bootstrap: bootstrap)
            return kept.withLock { kept in
                if let found = kept.byLength[n] { return found }
                guard kept.bytes + drawn.byteCount <= budget else { return drawn }
                kept.byLength[n] = drawn
                kept.bytes += drawn.byteCount
                return drawn
            }
        }

        /// How many lengths are kept (for tests and diagnostics).
        public var keptLengths: Int { kept.withLock { $0.byLength.count } }
    }
}
