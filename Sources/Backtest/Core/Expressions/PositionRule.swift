/// A rule that reads position-aware series, compiled for the run: every part of it that does not
/// read the position was computed as whole arrays before the run; what is left is evaluated per bar.
///
/// What is left is a flat program (`PositionProgram` compiles it): one instruction per operation
/// that reads the position, each applying the scalar rule of the whole-array pass it replaces
/// (`ExpressionKernels.unary`/`binary`, so NaN, division by zero and three-valued logic are
/// the same, bit for bit). An instruction reads two `Operand`s: a register (the state's six
/// fields, in `PositionSeries.slot` order, then one register per earlier instruction), a
/// precomputed part's value at the bar, or a constant; it writes the next register.
///
/// - Complexity: `value(at:_:)` is O(instructions), with no allocation (the registers are a
///   stack buffer up to 128 of them, a heap one beyond), no copying and no recursion. Making the
///   rule copies the precomputed parts bar-major: O(bars × parts).
public struct PositionRule: Sendable {
    /// Bars the rule was computed for (the candles' count).
    public let count: Int
    /// The precomputed parts' values bar by bar: `width` values per bar, bar-major, so one bar's
    /// values are adjacent.
    let values: [Double]
    /// Precomputed parts.
    let width: Int
    let constants: [Double]
    let program: [Instruction]
    /// The rule's value once the program ran.
    let result: Operand

    /// Registers that hold the state's fields, before those of the instructions.
    static let stateRegisters = PositionSeries.allCases.count

    /// - Parameter values: `width` values per bar for `count` bars, bar-major.
    init(count: Int, width: Int, values: [Double], constants: [Double], program: [Instruction], result: Operand) {
        precondition(values.count == count * width, "every precomputed part must have one value per bar")
        self.count = count
        self.width = width
        self.values = values
        self.constants = constants
        self.program = program
        self.result = result
        for (i, instruction) in program.enumerated() {
            precondition(isValid(instruction.a, registers: Self.stateRegisters + i)
                         && isValid(instruction.b, registers: Self.stateRegisters + i), "an instruction must read earlier values")
        }
        precondition(isValid(result, registers: Self.stateRegisters + program.count), "the result must be a value")
    }

    /// The rule with the precomputed parts given as columns (`columns[j]` has `count` values).
    init(count: Int, columns: [[Double]], constants: [Double], program: [Instruction], result: Operand) {
        precondition(columns.allSatisfy { $0.count == count }, "every precomputed part must have one value per bar")
        let width = columns.count
        let values = [Double](unsafeUninitializedCapacity: count * width) { out, initialized in
            for (j, column) in columns.enumerated() {
                column.withUnsafeBufferPointer { c in
                    for t in 0..<count { out[t * width + j] = c[t] }
                }
            }
            initialized = count * width
        }
        self.init(count: count, width: width, values: values, constants: constants, program: program, result: result)
    }

    private func isValid(_ o: Operand, registers: Int) -> Bool {
        switch o.kind {
        case .register: o.index < registers
        case .precomputed: o.index < width
        case .constant: o.index < constants.count
        }
    }

    /// The rule's value at `bar` with `state` (conditions: 1, 0, or NaN for unknown).
    /// - Precondition: `0 <= bar < count`.
    public func value(at bar: Int, _ state: PositionState) -> Double {
        evaluate(at: bar, state)
    }

    /// True only where the value is 1 (NaN is not true), as whole-series rules fire.
    public func isTrue(at bar: Int, _ state: PositionState) -> Bool {
        evaluate(at: bar, state) == 1
    }

    /// Writes the state into the first registers, then runs the program. Buffers are read
    /// through unsafe pointers (unchecked in optimised builds; every operand was checked when
    /// the rule was made).
    @inline(__always)
    private func evaluate(at bar: Int, _ state: PositionState) -> Double {
        precondition(bar >= 0 && bar < count, "bar outside the bars the rule was computed for")
        return values.withUnsafeBufferPointer { v in
            constants.withUnsafeBufferPointer { c in
                program.withUnsafeBufferPointer { p in
                    @inline(__always) func run(_ r: UnsafeMutablePointer<Double>) -> Double {
                        r[0] = state.position
                        r[1] = state.entryPrice
                        r[2] = state.barsInTrade
                        r[3] = state.tradeReturn
                        r[4] = state.highestSinceEntry
                        r[5] = state.lowestSinceEntry
                        // Where each kind of operand reads (`Operand.Kind`'s order). Empty
                        // buffers may have no address; nothing reads them then.
                        var bases = (UnsafePointer(r), v.baseAddress.map { $0 + bar &* width } ?? UnsafePointer(r),
                                     c.baseAddress ?? UnsafePointer(r))
                        return withUnsafePointer(to: &bases) {
                            $0.withMemoryRebound(to: UnsafePointer<Double>.self, capacity: 3) { base in
                                var next = Self.stateRegisters
                                for i in 0..<p.count {
                                    let instruction = p[i]
                                    r[next] = instruction.apply(instruction.a.read(base), instruction.b.read(base))
                                    next &+= 1
                                }
                                return result.read(base)
                            }
                        }
                    }
                    // A fixed frame for the usual few instructions, a sized one beyond.
                    if p.count <= Self.smallProgram {
                        return withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.stateRegisters + Self.smallProgram) {
                            run($0.baseAddress!)
                        }
                    }
                    return withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.stateRegisters + p.count) {
                        run($0.baseAddress!)
                    }
                }
            }
        }
    }

    /// Most instructions evaluated with a register file of fixed size.
    static let smallProgram = 26

    /// The rule over bars `range` only (bar 0 of the result is `range.lowerBound`), as a run over
    /// part of the candles (a walk-forward fold) needs it.
    public func slice(_ range: Range<Int>) -> PositionRule {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the rule's bars")
        return PositionRule(count: range.count, width: width,
                            values: Array(values[range.lowerBound * width..<range.upperBound * width]),
                            constants: constants, program: program, result: result)
    }
}

extension PositionRule: Equatable {
    /// Equal programs over equal values, NaN equal to NaN (by bit pattern).
    public static func == (a: PositionRule, b: PositionRule) -> Bool {
        func same(_ x: [Double], _ y: [Double]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy { $0.bitPattern == $1.bitPattern }
        }
        return a.count == b.count && a.width == b.width && a.result == b.result && a.program == b.program
            && same(a.constants, b.constants) && same(a.values, b.values)
    }
}

extension PositionRule {
    /// A value an instruction reads: a register, a precomputed part at the bar or a constant,
    /// by index; the kind in the low two bits, so that reading one is a shift and a select.
    struct Operand: Sendable, Equatable {
        enum Kind: Int32 {
            case register = 0, precomputed = 1, constant = 2
        }

        let bits: Int32

        init(_ kind: Kind, _ index: Int) {
            precondition(index >= 0 && index < 1 << 29, "operand index out of range")
            bits = Int32(index) << 2 | kind.rawValue
        }

        var kind: Kind {
            @inline(__always) get {
                switch bits & 3 {
                case 0: .register
                case 1: .precomputed
                default: .constant
                }
            }
        }

        var index: Int {
            @inline(__always) get { Int(bits >> 2) }
        }

        /// The value, given where each kind reads (`base[kind]`).
        @inline(__always)
        func read(_ base: UnsafePointer<UnsafePointer<Double>>) -> Double {
            base[Int(bits & 3)][Int(bits >> 2)]
        }
    }

    /// One operation of the per-bar program: the next register is `operation(a, b)` (`b` is
    /// ignored by unary operations).
    struct Instruction: Sendable, Equatable {
        enum Operation: UInt8, Sendable {
            case negate, not, abs, log, exp, sqrt, floor, ceil
            case add, subtract, multiply, divide
            case less, lessOrEqual, greater, greaterOrEqual, equal, notEqual
            case and, or, min, max
        }

        var operation: Operation
        var a: Operand
        var b: Operand

        /// The scalar rule of the whole-array pass (`ExpressionKernels`), so the values are the same.
        @inline(__always)
        func apply(_ x: Double, _ y: Double) -> Double {
            switch operation {
            case .negate: ExpressionKernels.unary(.negate, x)
            case .not: ExpressionKernels.unary(.not, x)
            case .abs: ExpressionKernels.unary(.abs, x)
            case .log: ExpressionKernels.unary(.log, x)
            case .exp: ExpressionKernels.unary(.exp, x)
            case .sqrt: ExpressionKernels.unary(.sqrt, x)
            case .floor: ExpressionKernels.unary(.floor, x)
            case .ceil: ExpressionKernels.unary(.ceil, x)
            case .add: ExpressionKernels.binary(.add, x, y)
            case .subtract: ExpressionKernels.binary(.subtract, x, y)
            case .multiply: ExpressionKernels.binary(.multiply, x, y)
            case .divide: ExpressionKernels.binary(.divide, x, y)
            case .less: ExpressionKernels.binary(.less, x, y)
            case .lessOrEqual: ExpressionKernels.binary(.lessOrEqual, x, y)
            case .greater: ExpressionKernels.binary(.greater, x, y)
            case .greaterOrEqual: ExpressionKernels.binary(.greaterOrEqual, x, y)
            case .equal: ExpressionKernels.binary(.equal, x, y)
            case .notEqual: ExpressionKernels.binary(.notEqual, x, y)
            case .and: ExpressionKernels.binary(.and, x, y)
            case .or: ExpressionKernels.binary(.or, x, y)
            case .min: ExpressionKernels.binary(.min, x, y)
            case .max: ExpressionKernels.binary(.max, x, y)
            }
        }

        init(_ operation: Operation, _ a: Operand, _ b: Operand) {
            self.operation = operation
            self.a = a
            self.b = b
        }
    }
}

extension PositionRule.Instruction.Operation {
    init(_ op: ExpressionNode.UnaryOperation) {
        switch op {
        case .negate: self = .negate
        case .not: self = .not
        case .abs: self = .abs
        case .log: self = .log
        case .exp: self = .exp
        case .sqrt: self = .sqrt
        case .floor: self = .floor
        case .ceil: self = .ceil
        }
    }

    init(_ op: ExpressionNode.BinaryOperation) {
        switch op {
        case .add: self = .add
        case .subtract: self = .subtract
        case .multiply: self = .multiply
        case .divide: self = .divide
        case .less: self = .less
        case .lessOrEqual: self = .lessOrEqual
        case .greater: self = .greater
        case .greaterOrEqual: self = .greaterOrEqual
        case .equal: self = .equal
        case .notEqual: self = .notEqual
        case .and: self = .and
        case .or: self = .or
        case .min: self = .min
        case .max: self = .max
        }
    }
}

/// The rules of a strategy that read the position, by role (nil: that role has no such rule).
public struct PositionRules: Sendable, Equatable {
    public var entry: PositionRule?
    public var exit: PositionRule?
    public var shortEntry: PositionRule?
    public var shortExit: PositionRule?

    public init(entry: PositionRule? = nil, exit: PositionRule? = nil, shortEntry: PositionRule? = nil, shortExit: PositionRule? = nil) {
        self.entry = entry
        self.exit = exit
        self.shortEntry = shortEntry
        self.shortExit = shortExit
    }

    /// No role has a rule.
    public var isEmpty: Bool { entry == nil && exit == nil && shortEntry == nil && shortExit == nil }

    /// The rule of `role`.
    public subscript(role: SignalRules.Role) -> PositionRule? {
        get {
            switch role {
            case .entry: entry
            case .exit: exit
            case .shortEntry: shortEntry
            case .shortExit: shortExit
            }
        }
        set {
            switch role {
            case .entry: entry = newValue
            case .exit: exit = newValue
            case .shortEntry: shortEntry = newValue
            case .shortExit: shortExit = newValue
            }
        }
    }

    /// The rules over bars `range` only.
    public func slice(_ range: Range<Int>) -> PositionRules {
        PositionRules(entry: entry?.slice(range), exit: exit?.slice(range),
                      shortEntry: shortEntry?.slice(range), shortExit: shortExit?.slice(range))
    }
}
