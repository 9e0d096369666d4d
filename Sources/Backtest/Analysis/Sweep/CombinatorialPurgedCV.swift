import BacktestCore
import Foundation

/// Combinatorial purged cross-validation (Lopez de Prado, *Advances in Financial Machine
/// Learning*, 2018, ch. 12), cut exactly as skfolio 1.12's `CombinatorialPurgedCV(n_folds: N,
/// n_test_folds: K, purged_size: P, embargo_size: E)` cuts n bars:
///
/// - N groups: the first N-1 of n / N bars (integer division), the last the rest;
/// - one split per combination of K test groups, in `itertools.combinations` order;
/// - a split's train bars are the others, less the P bars before each test block and the P+E
///   bars after it (adjacent test groups form one block; a bar purged for two blocks is
///   purged once); its test bars are its groups whole;
/// - C(N-1, K-1) paths: path p takes group g's test bars from the p-th split (in split order)
///   that tests g.
public struct CombinatorialPurgedCV: Sendable, Equatable {
    public let bars: Int, groups: Int, testGroups: Int, purge: Int, embargo: Int

    /// One split: the groups it tests (ascending) and its train bars as ascending runs.
    public struct Split: Sendable, Equatable {
        public var test: [Int]
        public var train: [ClosedRange<Int>]
    }

    /// The bars of each group.
    public let groupBars: [ClosedRange<Int>]
    public let splits: [Split]
    /// `paths[p][g]`: the split whose test of group g path p takes.
    public let paths: [[Int]]

    /// skfolio's most splits.
    public static let maximumSplits = 100_000

    /// - Throws: `InputError` (setting `cv`) for N below 3, K below 2 or not below N, more than
    ///   `maximumSplits` splits, or groups too short for the purge and embargo (skfolio's rule:
    ///   P + E must be below n / N - 1); (setting `purge`, `embargo`) for a negative one.
    public init(bars: Int, groups n: Int, testGroups k: Int, purge: Int = 0, embargo: Int = 0) throws {
        let count = try Self.check(groups: n, testGroups: k)
        guard purge >= 0 else { throw InputError("must not be negative", setting: .purge, value: String(purge)) }
        guard embargo >= 0 else { throw InputError("must not be negative", setting: .embargo, value: String(embargo)) }
        let size = bars / n
        guard purge + embargo < size - 1 else {
            throw InputError("groups of \(size) bars are too short for a purge of \(purge) and an embargo of \(embargo) bars "
                             + "(\(Setting.purge.mention) + \(Setting.embargo.mention) must be below \(max(size - 1, 0)))",
                             setting: .cv, value: "cpcv:\(n),\(k)")
        }
        (self.bars, groups, testGroups, self.purge, self.embargo) = (bars, n, k, purge, embargo)
        groupBars = (0..<n).map { g in g * size...(g == n - 1 ? bars - 1 : (g + 1) * size - 1) }
        var splits: [Split] = []
        var tests: [[Int]] = []
        Self.forEachCombination(n, k) { tests.append($0) }
        for test in tests {
            // 1 test, 0 train, -1 purged, as skfolio marks them.
            var mark = [Int8](repeating: 0, count: bars)
            for g in test { for i in groupBars[g] { mark[i] = 1 } }
            let original = mark
            for i in 0..<(bars - 1) {
                if original[i] == 0 && original[i + 1] == 1 {
                    for d in 0..<purge { mark[max(0, i - d)] = -1 }
                } else if original[i] == 1 && original[i + 1] == 0 {
                    for d in 0..<(purge + embargo) { mark[min(bars - 1, i + d + 1)] = -1 }
                }
            }
            var train: [ClosedRange<Int>] = []
            var start: Int?
            for i in 0...bars {
                let isTrain = i < bars && mark[i] == 0
                if isTrain, start == nil { start = i }
                if !isTrain, let s = start { train.append(s...(i - 1)); start = nil }
            }
            splits.append(Split(test: test, train: train))
        }
        self.splits = splits
        let pathCount = count * k / n
        let testing = (0..<n).map { g in splits.indices.filter { splits[$0].test.contains(g) } }
        paths = (0..<pathCount).map { p in (0..<n).map { testing[$0][p] } }
    }

    /// `--cv cpcv:N,K --purge P --embargo E` before the bars are known.
    public struct Settings: Sendable, Equatable {
        public var groups: Int, testGroups: Int, purge: Int, embargo: Int

        /// nil without `cv`; purge and embargo 0 when not given.
        /// - Throws: `InputError` for a `cv` other than `cpcv:N,K` (whole numbers), a purge or
        ///   embargo that is not a whole number from 0, or either without `cv`.
        public init?(cv: String?, purge: String?, embargo: String?) throws {
            guard let cv else {
                if let given = purge.map({ (Setting.purge, $0) }) ?? embargo.map({ (Setting.embargo, $0) }) {
                    throw InputError("is for \(Setting.cv.mention) cpcv:N,K", setting: given.0, value: given.1)
                }
                return nil
            }
            let parts = cv.hasPrefix("cpcv:") ? cv.dropFirst(5).split(separator: ",", omittingEmptySubsequences: false) : []
            guard parts.count == 2, let n = Int(parts[0]), let k = Int(parts[1]) else {
                throw InputError("expected cpcv:N,K (N groups, K of them tested per split)", setting: .cv, value: cv)
            }
            func bars(_ text: String?, _ setting: Setting) throws -> Int {
                guard let text else { return 0 }
                guard let v = Int(text), v >= 0 else { throw InputError("not a whole number of bars from 0", setting: setting, value: text) }
                return v
            }
            (groups, testGroups, self.purge, self.embargo) = (n, k, try bars(purge, .purge), try bars(embargo, .embargo))
            _ = try CombinatorialPurgedCV.check(groups: n, testGroups: k)  // N and K alone, before any data
        }

        /// The splits of `bars` bars.
        public func splits(bars: Int) throws -> CombinatorialPurgedCV {
            try CombinatorialPurgedCV(bars: bars, groups: groups, testGroups: testGroups, purge: purge, embargo: embargo)
        }

        /// `cpcv:N,K`.
        public var text: String { "cpcv:\(groups),\(testGroups)" }
    }

    /// Checks N and K as skfolio does; returns the number of splits.
    static func check(groups n: Int, testGroups k: Int) throws -> Int {
        guard n >= 3 else { throw InputError("needs at least 3 groups", setting: .cv, value: "cpcv:\(n),\(k)") }
        guard k >= 2, k < n else {
            throw InputError("the test groups K must be at least 2 and below the groups N", setting: .cv, value: "cpcv:\(n),\(k)")
        }
        let count = Self.combinations(n, k)
        guard count <= Self.maximumSplits else {
            throw InputError("gives \(count) splits; at most \(Self.maximumSplits)", setting: .cv, value: "cpcv:\(n),\(k)")
        }
        return count
    }

    /// C(n, k), saturating at `Int.max`.
    static func combinations(_ n: Int, _ k: Int) -> Int {
        var c = 1
        for i in 0..<k {
            let (m, overflow) = c.multipliedReportingOverflow(by: n - i)
            if overflow { return .max }
            c = m / (i + 1)
        }
        return c
    }

    /// Every k-subset of 0..<n in lexicographic order (`itertools.combinations`).
    static func forEachCombination(_ n: Int, _ k: Int, _ body: ([Int]) -> Void) {
        var c = Array(0..<k)
        while true {
            body(c)
            var i = k - 1
            while i >= 0 && c[i] == n - k + i { i -= 1 }
            if i < 0 { return }
            c[i] += 1
            for j in (i + 1)..<k { c[j] = c[j - 1] + 1 }
        }
    }
}
