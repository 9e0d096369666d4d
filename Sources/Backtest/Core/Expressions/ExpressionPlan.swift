import Foundation

/// Bound expressions compiled into steps, each one pass over whole arrays, in dependency order.
///
/// Equal subexpressions become one step (entry and exit rules that share `sma(close, $slow)`
/// compute it once). Columns are read in place; indicators come from the `IndicatorCache` (keyed
/// by spec and input, so a sweep computes each window once); every other step writes into a
/// buffer of a reusable `ExpressionWorkspace`. Buffers are assigned before running: a step's
/// buffer is reused once its last reader has run, so a plan needs few buffers however long it is.
public struct ExpressionPlan: Sendable {
    /// One pass, its operands by the steps that compute them. A step is also its node's identity
    /// in the plan: two nodes are equal exactly when their steps are (operands already merged are
    /// one step), so equal subexpressions are found by hashing steps, in O(1) each, without
    /// walking subtrees. Constants are their bits (NaN equal to itself, -0 apart from 0).
    enum Step: Hashable, Sendable {
        case column(CandleSeries.Column)
        case constant(bits: UInt64)
        /// A constant something reads as a series: filled into a buffer.
        case fill(Double)
        case indicator(IndicatorCache.Key, input: Int?, output: Int)
        case unary(ExpressionNode.UnaryOperation, Int)
        case binary(ExpressionNode.BinaryOperation, Int, Int)
        case shift(Int, by: Int)
        case window(ExpressionNode.WindowOperation, Int, period: Int)
        case cross(above: Bool, Int, Int)
        case barsSince(Int)
        /// A node evaluated on another series and aligned to the candles' bars.
        case other(OtherSeries, ExpressionNode)

        var inputs: [Int] {
            switch self {
            case .column, .constant, .fill, .other: return []
            case .indicator(_, let input, _): return input.map { [$0] } ?? []
            case .unary(_, let x), .shift(let x, _), .window(_, let x, _), .barsSince(let x): return [x]
            case .binary(_, let a, let b), .cross(_, let a, let b): return [a, b]
            }
        }
    }

    let steps: [Step]
    /// The step of each root, in the order given.
    let roots: [Int]
    /// The workspace buffer each step writes, or -1 (columns, constants, indicators).
    let slots: [Int]
    let slotCount: Int
    /// The bound roots, for warm-ups.
    public let nodes: [ExpressionNode]
    /// A position series the roots read (`PositionRule` evaluates those; a plan refuses to run).
    let position: PositionSeries?

    /// Compiles `roots` (bound expressions) into one plan.
    /// - Complexity: O(nodes): equal subexpressions are merged by their `Step`s (thousands of
    ///   take-profit distances are one plan).
    public init(_ roots: [ExpressionNode]) {
        var steps: [Step] = []
        var merged: [Step: Int] = [:]
        var position: PositionSeries?
        func add(_ node: ExpressionNode) -> Int {
            let step: Step
            switch node {
            case .column(let c): step = .column(c)
            case .constant(let bits): step = .constant(bits: bits)
            case .unary(let op, let x): step = .unary(op, add(x))
            case .binary(let op, let a, let b): step = .binary(op, add(a), add(b))
            case .shift(let x, let k): step = .shift(add(x), by: k)
            case .window(let op, let x, let n): step = .window(op, add(x), period: n)
            case .cross(let above, let a, let b): step = .cross(above: above, add(a), add(b))
            case .barsSince(let c): step = .barsSince(add(c))
            case .other(let series, let x): step = .other(series, x)
            case .position(let s):
                position = position ?? s
                step = .constant(bits: Double.nan.bitPattern)
            case .indicator(let spec, let input, let output):
                switch input {
                case nil:
                    step = .indicator(IndicatorCache.Key(spec, input: .candles), input: nil, output: output)
                case .column(let c)?:
                    step = .indicator(IndicatorCache.Key(spec, input: .column(c)), input: nil, output: output)
                case let derived?:
                    step = .indicator(IndicatorCache.Key(spec, input: .expression(derived)), input: add(derived), output: output)
                }
            }
            if let i = merged[step] { return i }
            steps.append(step)
            merged[step] = steps.count - 1
            return steps.count - 1
        }
        let rootSteps = roots.map(add)
        // A constant read by anything but a binary pass (or a root) is filled into a buffer.
        var readAsSeries = Set(rootSteps)
        for step in steps {
            switch step {
            case .binary: break
            default: readAsSeries.formUnion(step.inputs)
            }
        }
        for (i, step) in steps.enumerated() {
            if case .constant(let bits) = step, readAsSeries.contains(i) { steps[i] = .fill(Double(bitPattern: bits)) }
        }
        // Buffers: a step's buffer is free again after the last step that reads it.
        var lastUse = [Int](repeating: -1, count: steps.count)
        for (i, step) in steps.enumerated() { for j in step.inputs { lastUse[j] = i } }
        for r in rootSteps { lastUse[r] = Int.max }
        // A slot is free again once its step's last reader has run, and a step takes a free slot
        // before a new one, so there are as many slots as buffers live at once (whichever free
        // slot is taken: the last freed, in O(1), where a scan of every slot was quadratic in
        // roots, which keep theirs to the end).
        var slots = [Int](repeating: -1, count: steps.count)
        var slotCount = 0
        var free: [Int] = []
        var freedAfter: [Int: [Int]] = [:]  // step -> the slots free once it has run
        for (i, step) in steps.enumerated() {
            free += freedAfter.removeValue(forKey: i - 1) ?? []
            switch step {
            case .column, .constant, .indicator, .other: continue
            default: break
            }
            let slot = free.popLast() ?? slotCount
            if slot == slotCount { slotCount += 1 }
            slots[i] = slot
            if lastUse[i] != Int.max { freedAfter[max(lastUse[i], i), default: []].append(slot) }
        }
        self.steps = steps
        self.roots = rootSteps
        self.slots = slots
        self.slotCount = slotCount
        self.nodes = roots
        self.position = position
    }

    /// Number of passes (steps that are not plain column reads or constants).
    public var passCount: Int {
        steps.filter { if case .column = $0 { return false }; if case .constant = $0 { return false }; return true }.count
    }

    /// The roots' values on `candles`, handed to `body` as buffers of `candles.count` values
    /// (valid only inside `body`). Indicators come from `cache`, which must belong to `candles`.
    /// - Throws: `InputError` from an indicator (a period longer than the series), or when a
    ///   root reads a position series (`PositionRule` evaluates those, bar by bar in a run).
    public func evaluate<R>(on candles: CandleSeries, cache: IndicatorCache, workspace: ExpressionWorkspace,
                            _ body: ([UnsafeBufferPointer<Double>]) throws -> R) throws -> R {
        let n = candles.count
        try refusePosition()
        guard n > 0 else { return try body(roots.map { _ in UnsafeBufferPointer(start: nil, count: 0) }) }
        return try execute(on: candles, cache: cache, workspace: workspace, truths: [:]) { values in
            func collect(_ k: Int, _ acc: [UnsafeBufferPointer<Double>]) throws -> R {
                if k == roots.count { return try body(acc) }
                return try values(roots[k]) { try collect(k + 1, acc + [$0]) }
            }
            return try collect(0, [])
        }
    }

    /// The roots as signals: true where a root's value is 1 (not 0, not unknown). A root that is a
    /// comparison, logical operator, `not` or crossing writes its booleans directly.
    public func truths(on candles: CandleSeries, cache: IndicatorCache, workspace: ExpressionWorkspace) throws -> [[Bool]] {
        try outputs(on: candles, cache: cache, workspace: workspace, truths: roots.count).truths
    }

    /// The first `count` roots as signals (as `truths(on:cache:workspace:)` gives them), the
    /// others as arrays of values: columns and indicators share their arrays' storage, the rest
    /// are copied out of the workspace.
    func outputs(on candles: CandleSeries, cache: IndicatorCache, workspace: ExpressionWorkspace,
                 truths count: Int) throws -> (truths: [[Bool]], values: [[Double]]) {
        precondition(count <= roots.count, "more signal roots than roots")
        let n = candles.count
        let signalRoots = roots[..<count], valueRoots = roots[count...]
        guard n > 0 else {
            try refusePosition()
            return (signalRoots.map { _ in [] }, valueRoots.map { _ in [] })
        }
        var readers = Set<Int>(valueRoots)
        for step in steps { readers.formUnion(step.inputs) }
        var direct: [Int: UnsafeMutablePointer<Bool>] = [:]
        for r in signalRoots where direct[r] == nil && !readers.contains(r) {
            switch steps[r] {
            case .binary(let op, _, _) where Self.isCondition(op): break
            case .cross, .unary(.not, _): break
            default: continue
            }
            direct[r] = UnsafeMutablePointer<Bool>.allocate(capacity: n)
        }
        directOperands(of: Array(direct.keys), into: &direct, count: n)
        defer { for p in direct.values { p.deallocate() } }
        return try execute(on: candles, cache: cache, workspace: workspace, truths: direct) { values in
            let truths = signalRoots.map { r -> [Bool] in
                if let p = direct[r] { return Array(UnsafeBufferPointer(start: p, count: n)) }
                return values(r) { x in
                    [Bool](unsafeUninitializedCapacity: n) { out, count in
                        for i in 0..<n { out[i] = x[i] == 1 }
                        count = n
                    }
                }
            }
            return (truths, valueRoots.map(values.array))
        }
    }

    /// Gives booleans to the operands of `and` and `or` steps in `direct` (recursively) when
    /// both are conditions read by nothing else, so the step combines bytes: with conditions
    /// worth 1, 0 or unknown, `a and b` is 1 exactly where both are 1, and `a or b` where
    /// either is (Kleene's rules, `ExpressionKernels.and`/`or`).
    private func directOperands(of stepsWritingTruths: [Int], into direct: inout [Int: UnsafeMutablePointer<Bool>], count n: Int) {
        var readers = [Int](repeating: 0, count: steps.count)
        for step in steps { for j in step.inputs { readers[j] += 1 } }
        for r in roots { readers[r] += 1 }
        func isCondition(_ j: Int) -> Bool {
            switch steps[j] {
            case .binary(let op, _, _): return Self.isCondition(op)
            case .cross, .unary(.not, _): return true
            default: return false
            }
        }
        var pending = stepsWritingTruths
        while let r = pending.popLast() {
            guard case .binary(let op, let a, let b) = steps[r], op == .and || op == .or, a != b,
                  isCondition(a), isCondition(b), readers[a] == 1, readers[b] == 1 else { continue }
            for j in [a, b] {
                direct[j] = UnsafeMutablePointer<Bool>.allocate(capacity: n)
                pending.append(j)
            }
        }
    }

    /// Throws when the plan reads a position series, which has no values outside a run.
    func refusePosition() throws {
        guard let position else { return }
        throw InputError("'\(position.rawValue)' is a position series: it has values only bar by bar during a run, "
                         + "so it cannot be evaluated over whole series")
    }

    static func isCondition(_ op: ExpressionNode.BinaryOperation) -> Bool {
        switch op {
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual, .and, .or: return true
        case .add, .subtract, .multiply, .divide, .min, .max: return false
        }
    }

    /// Reads the values of a step whose buffer or array is still live.
    struct Reader {
        let slots: [Int]
        let workspace: ExpressionWorkspace
        let arrays: [[Double]?]

        func callAsFunction<T>(_ j: Int, _ f: (UnsafeBufferPointer<Double>) throws -> T) rethrows -> T {
            if slots[j] >= 0 { return try f(UnsafeBufferPointer(workspace.buffer(slots[j]))) }
            return try arrays[j]!.withUnsafeBufferPointer(f)
        }

        /// The values of step `j` as an array: a copy of its buffer, or the array it read.
        func array(_ j: Int) -> [Double] {
            if slots[j] >= 0 { return Array(UnsafeBufferPointer(workspace.buffer(slots[j]))) }
            return arrays[j]!
        }
    }

    /// Runs every step in order; steps in `truths` write booleans there instead of values.
    /// `finish` reads the roots' values.
    /// - Precondition: `candles` is not empty.
    /// Refuses a close-only series (open = high = low = close, no volume) when the plan reads
    /// `high`, `low` (also through `hl2`, `hlc3`, `ohlc4`) or `volume` directly: they would be
    /// invented values. Indicators check their own inputs (`IndicatorSpec.compute`).
    /// - Complexity: O(bars) when the plan reads volume; usually O(1) for the range.
    private func requireColumns(of candles: CandleSeries) throws {
        var range = false, volume = false
        for step in steps {
            guard case .column(let c) = step else { continue }
            if c == .high || c == .low { range = true }
            if c == .volume { volume = true }
        }
        guard range || volume else { return }
        let read = [range ? "high and low" : nil, volume ? "volume" : nil].compactMap { $0 }.joined(separator: " and ")
        try candles.require(range: range, volume: volume, for: "an expression reading \(read)")
    }

    private func execute<R>(on candles: CandleSeries, cache: IndicatorCache, workspace: ExpressionWorkspace,
                            truths: [Int: UnsafeMutablePointer<Bool>], _ finish: (Reader) throws -> R) throws -> R {
        let n = candles.count
        try refusePosition()
        try requireColumns(of: candles)
        workspace.prepare(slots: slotCount, count: n)
        var arrays = [[Double]?](repeating: nil, count: steps.count)
        var constants = [Double](repeating: 0, count: steps.count)

        func withValues<T>(_ j: Int, _ f: (UnsafeBufferPointer<Double>) throws -> T) rethrows -> T {
            if slots[j] >= 0 { return try f(UnsafeBufferPointer(workspace.buffer(slots[j]))) }
            return try arrays[j]!.withUnsafeBufferPointer(f)
        }
        func withOperand<T>(_ j: Int, _ f: (ExpressionKernels.Operand) throws -> T) rethrows -> T {
            if case .constant = steps[j] { return try f(.scalar(constants[j])) }
            return try withValues(j) { try f(.vector($0.baseAddress!)) }
        }

        for (i, step) in steps.enumerated() {
            let out = slots[i] >= 0 ? workspace.buffer(slots[i]) : UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
            let truth = truths[i]
            switch step {
            case .column(let c):
                arrays[i] = candles[c]
            case .constant(let bits):
                constants[i] = Double(bitPattern: bits)
            case .fill(let v):
                out.initialize(repeating: v)
            case .indicator(let key, let input, let output):
                let outputs = try cache.outputs(key) {
                    guard let input else { return try key.spec.compute(on: candles, input: key.input) }
                    return try key.spec.compute(series: withValues(input) { Array($0) })
                }
                arrays[i] = outputs[output]
            case .other(let series, let node):
                arrays[i] = try series.values(of: node, alignedTo: candles)
            case .unary(.not, let x) where truth != nil:
                withValues(x) { ExpressionKernels.not($0.baseAddress!, into: ExpressionKernels.Truths(p: truth!), count: n) }
            case .unary(let op, let x):
                withValues(x) { ExpressionKernels.unary(op, $0.baseAddress!, into: out.baseAddress!, count: n) }
            case .binary(let op, let a, let b) where truth != nil && truths[a] != nil && truths[b] != nil:
                ExpressionKernels.combineTruths(either: op == .or, truths[a]!, truths[b]!, into: truth!, count: n)
            case .binary(let op, let a, let b):
                withOperand(a) { a in
                    withOperand(b) { b in
                        if let truth {
                            ExpressionKernels.compareTruths(op, a, b, into: truth, count: n)
                        } else {
                            ExpressionKernels.binary(op, a, b, into: ExpressionKernels.Values(p: out.baseAddress!), count: n)
                        }
                    }
                }
            case .shift(let x, let k):
                withValues(x) { ExpressionKernels.shift($0.baseAddress!, by: k, into: out.baseAddress!, count: n) }
            case .window(let op, let x, let period):
                withValues(x) { ExpressionKernels.window(op, $0, period: period, into: out) }
            case .cross(let above, let a, let b):
                withOperand(a) { a in
                    withOperand(b) { b in
                        if let truth {
                            ExpressionKernels.crossTruths(above: above, a, b, into: truth, count: n)
                        } else {
                            ExpressionKernels.cross(above: above, a, b, into: ExpressionKernels.Values(p: out.baseAddress!), count: n)
                        }
                    }
                }
            case .barsSince(let c):
                withValues(c) { ExpressionKernels.barsSince($0.baseAddress!, into: out.baseAddress!, count: n) }
            }
        }
        return try finish(Reader(slots: slots, workspace: workspace, arrays: arrays))
    }
}

/// Reusable buffers for evaluating plans: one per plan slot, each the length of the series.
/// Not thread-safe: one evaluation at a time (`ExpressionWorkspace.Pool` hands them out).
public final class ExpressionWorkspace {
    private var buffers: [UnsafeMutableBufferPointer<Double>] = []
    private var count = 0

    public init() {}

    deinit {
        for b in buffers { b.deallocate() }
    }

    /// Makes `slots` buffers of `count` values available, reusing the current ones when they fit.
    func prepare(slots: Int, count n: Int) {
        if n != count {
            for b in buffers { b.deallocate() }
            buffers = []
            count = n
        }
        while buffers.count < slots {
            let b = UnsafeMutableBufferPointer<Double>.allocate(capacity: Swift.max(1, n))
            buffers.append(UnsafeMutableBufferPointer(rebasing: b[0..<n]))
        }
    }

    func buffer(_ slot: Int) -> UnsafeMutableBufferPointer<Double> { buffers[slot] }

    /// Workspaces shared by concurrent evaluations (the combinations of a sweep): each
    /// evaluation takes one, and gives it back for the next, so buffers are allocated once per
    /// thread rather than once per combination.
    public final class Pool: @unchecked Sendable {
        private let lock = NSLock()
        private var idle: [ExpressionWorkspace] = []

        public init() {}

        /// Runs `body` with a workspace no one else is using.
        public func withWorkspace<R>(_ body: (ExpressionWorkspace) throws -> R) rethrows -> R {
            lock.lock()
            let w = idle.popLast() ?? ExpressionWorkspace()
            lock.unlock()
            defer {
                lock.lock()
                idle.append(w)
                lock.unlock()
            }
            return try body(w)
        }
    }
}
