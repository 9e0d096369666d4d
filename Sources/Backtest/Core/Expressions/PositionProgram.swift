/// A bound rule that reads position series, split in two: the maximal subtrees that do not read
/// the position (`subtrees`, for a whole-array plan to compute before the run) and the flat
/// program that combines them with the state at each bar (`PositionRule`).
///
/// `close < highest_since_entry * 0.95 or bars_in_trade >= $n` gives the subtree `close`, the
/// constants 0.95 and n, and four instructions: `*`, `<`, `>=`, `or`. Equal operations are
/// compiled once; constants stay constants.
struct PositionProgram {
    /// A value an instruction reads, before slots are numbered.
    private enum Operand: Equatable {
        case state(Int)
        case subtree(Int)
        case constant(Int)
        case register(Int)
    }

    /// The parts computed as whole arrays, in the order `rule(columns:count:)` takes their values.
    private(set) var subtrees: [ExpressionNode] = []
    private var constants: [Double] = []
    private var steps: [(operation: PositionRule.Instruction.Operation, a: Operand, b: Operand)] = []
    /// The node each step computes, so that equal operations are compiled once.
    private var stepNodes: [ExpressionNode] = []
    private var result = Operand.state(0)

    /// The program of `root`, nil when it reads no position series.
    ///
    /// Only arithmetic, comparisons, logic and element-wise functions may lie between a position
    /// series and the root (`ExpressionChecker` refuses the rest); anything else is a subtree, and
    /// an `ExpressionPlan` refuses a subtree that reads the position when asked to compute it.
    /// - Complexity: O(nodes × operations that read the position) node comparisons at most.
    init?(_ root: ExpressionNode) {
        guard let r = visit(root) else { return nil }
        result = r
    }

    /// The operand of `node`'s value, or nil when it reads no position series.
    private mutating func visit(_ node: ExpressionNode) -> Operand? {
        switch node {
        case .position(let s):
            return .state(s.slot)
        case .unary(let op, let x):
            guard let a = visit(x) else { return nil }
            return emit(node, .init(op), a, a)
        case .binary(let op, let x, let y):
            let a = visit(x), b = visit(y)
            if a == nil && b == nil { return nil }
            return emit(node, .init(op), a ?? precomputed(x), b ?? precomputed(y))
        default:
            return nil
        }
    }

    private mutating func emit(_ node: ExpressionNode, _ operation: PositionRule.Instruction.Operation,
                               _ a: Operand, _ b: Operand) -> Operand {
        if let i = stepNodes.firstIndex(of: node) { return .register(i) }
        steps.append((operation, a, b))
        stepNodes.append(node)
        return .register(steps.count - 1)
    }

    /// A subtree that reads no position series: a constant, or an array computed before the run.
    private mutating func precomputed(_ node: ExpressionNode) -> Operand {
        if let v = node.constantValue {
            if let i = constants.firstIndex(where: { $0.bitPattern == v.bitPattern }) { return .constant(i) }
            constants.append(v)
            return .constant(constants.count - 1)
        }
        if let i = subtrees.firstIndex(of: node) { return .subtree(i) }
        subtrees.append(node)
        return .subtree(subtrees.count - 1)
    }

    /// The rule, given each subtree's values (`columns[i]` for `subtrees[i]`) on `count` bars.
    func rule(columns: [[Double]], count: Int) -> PositionRule {
        precondition(columns.count == subtrees.count, "one array per precomputed subtree")
        func operand(_ o: Operand) -> PositionRule.Operand {
            switch o {
            case .state(let i): PositionRule.Operand(.register, i)
            case .register(let i): PositionRule.Operand(.register, PositionRule.stateRegisters + i)
            case .subtree(let i): PositionRule.Operand(.precomputed, i)
            case .constant(let i): PositionRule.Operand(.constant, i)
            }
        }
        return PositionRule(count: count, columns: columns, constants: constants,
                            program: steps.map { PositionRule.Instruction($0.operation, operand($0.a), operand($0.b)) },
                            result: operand(result))
    }
}

extension PositionSeries {
    /// The register of the series in a `PositionRule`: its field's place in `PositionState`.
    var slot: Int {
        switch self {
        case .position: 0
        case .entryPrice: 1
        case .barsInTrade: 2
        case .tradeReturn: 3
        case .highestSinceEntry: 4
        case .lowestSinceEntry: 5
        }
    }
}

extension ExpressionNode {
    /// Whether the tree reads a position series anywhere.
    var readsPosition: Bool {
        if case .position = self { return true }
        return children.contains { $0.readsPosition }
    }
}
