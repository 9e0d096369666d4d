import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// Expressions too wide or too long for the parser are refused with a short message before
/// anything is bound (without these bounds a `max()` of 90,000 arguments overflowed the stack
/// when its bound tree was freed, and a 10 MB identifier wrote 30 MB of error text).
@Suite("Expression bounds: size, length and the quoted line")
struct ExpressionBoundsTests {
    @Test("a call wider than the node limit is refused by the parser", arguments: [10_001, 45_000])
    func wideCall(arguments: Int) {
        let text = "close > max(" + Array(repeating: "1", count: arguments).joined(separator: ",") + ")"
        let e = #expect(throws: ExpressionError.self) { try SignalExpression(parsing: text) }
        #expect(e?.kind == .tooLarge && e?.reason.contains("more than \(SignalExpression.maximumNodes)") == true, "\(e?.reason ?? "")")
        #expect((e?.description.utf8.count ?? .max) < 400)
    }

    @Test("a call within the limit still parses")
    func wideButFine() throws {
        let text = "close > max(" + Array(repeating: "1", count: 4_000).joined(separator: ",") + ")"
        _ = try SignalExpression(parsing: text)
    }

    @Test("a 10 MB identifier is refused by its length, quoting at most 80 characters")
    func hugeIdentifier() {
        let text = "close > " + String(repeating: "a", count: 10_000_000)
        let e = #expect(throws: ExpressionError.self) { try SignalExpression(parsing: text) }
        #expect(e?.kind == .tooLarge)
        let lines = e?.caret.split(separator: "\n") ?? []
        #expect(lines.count == 2 && lines.allSatisfy { $0.count <= 2 + 3 + ExpressionError.shownWidth + 3 }, "\(lines.map(\.count))")
    }

    @Test("on a long line the caret still points at the offending characters", arguments: [5, 500, 4_990])
    func caretWindow(at offset: Int) {
        var text = Array(repeating: "close", count: 1_000).joined(separator: " + ")
        let index = text.index(text.startIndex, offsetBy: offset)
        text.replaceSubrange(index..<text.index(after: index), with: "#")
        let e = ExpressionError(.syntax, "unexpected '#'", at: offset..<(offset + 1), in: text)
        let lines = e.caret.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 2 && lines[0].count <= 2 + 3 + ExpressionError.shownWidth + 3)
        let column = lines[1].count - 1
        #expect(Array(lines[0])[column] == "#" && lines[1].hasSuffix(" ^"), "\(lines)")
    }

    // MARK: - Depth of bound trees

    /// Levels of `node` (1 for a leaf), counted with a stack of its own.
    static func depth(_ node: ExpressionNode) -> Int {
        var deepest = 0
        var pending = [(node, 1)]
        while let (n, d) = pending.popLast() {
            deepest = max(deepest, d)
            pending += n.children.map { ($0, d + 1) }
        }
        return deepest
    }

    /// The tree the binder builds for `text` (before the size check that may refuse it).
    static func bound(_ text: String) throws -> ExpressionNode {
        let e = try SignalExpression(parsing: text)
        return try ExpressionBinder(source: text, values: [:]).bind(e.root)
    }

    static func call(_ f: String, _ arguments: [String]) -> String { f + "(" + arguments.joined(separator: ",") + ")" }

    @Test("min and max of many arguments bind to a balanced tree: 14 levels for 9,999 arguments, not a chain of 9,998")
    func balancedVariadic() throws {
        let widest = Self.call("max", Array(repeating: "close", count: SignalExpression.maximumNodes - 1))
        #expect(Self.depth(try Self.bound(widest)) == 15)
        #expect(Self.depth(try Self.bound(Self.call("min", ["close", "open"]))) == 2)
    }

    /// The deepest bound tree the bounds allow: every syntax level adds at most 14 (a balanced
    /// call of up to 10,000 arguments) or 3 (`rising`, `falling`, `zscore`) levels, so a tree is at
    /// most `maximumDepth` x 14 + 5 levels deep, whatever the text.
    static let deepestBound = SignalExpression.maximumDepth * 14 + 5

    @Test("nested calls as deep as the bounds accept bind to trees within maximumDepth x 14 levels", arguments: [
        "max", "rising", "zscore", "offset",
    ])
    func deepestTrees(kind: String) throws {
        var text = "close"
        var levels = 0
        while true {
            let next: String
            switch kind {
            case "max": next = Self.call("max", [text] + Array(repeating: "open", count: 40))
            case "rising": next = "rising(\(text), 3)"
            case "zscore": next = "zscore(\(text), 3)"
            default: next = "(\(text))[1] + high"
            }
            // As deep as parsing and the size limit allow (`rising` and `zscore` read their input
            // twice and three times, so the written-out size doubles or triples per level).
            guard (try? SignalExpression(parsing: next)) != nil,
                  try !Self.bound(next).isLarger(than: ExpressionNode.maximumSize) else { break }
            text = next
            levels += 1
        }
        #expect(levels >= (kind == "max" || kind == "offset" ? 45 : 6), "\(kind): only \(levels) levels")
        let node = try Self.bound(text)
        #expect(Self.depth(node) <= Self.deepestBound, "\(kind): \(Self.depth(node)) levels")
    }

    @Test("a balanced min or max has the chain's values bit for bit: the leftmost extreme, NaN if any, signed zeros kept")
    func balancedValues() throws {
        var s = CandleSeries(symbol: "T", timeframe: .day1)
        let values: [Double] = [0, -0.0, 1, 1, -2, 3, -0.0, 0, 5, -5, 2, 2]
        for (i, v) in values.enumerated() {
            s.append(time: Int64(i) * 86_400, open: -v, high: abs(v) + 1, low: -abs(v) - 1, close: v, volume: Double(i))
        }
        let pool: [ExpressionNode] = [.column(.close), .column(.open), .shift(.column(.close), 1), .shift(.column(.open), 3),
                                      .constant(0), .constant(-0.0), .constant(1), .column(.volume), .unary(.negate, .column(.close))]
        var rng = SplitMix64(seed: 11)
        for trial in 0..<300 {
            let k = 1 + Int(rng.next() % 40)
            let arguments = (0..<k).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }
            for op in [ExpressionNode.BinaryOperation.max, .min] {
                let chain = arguments.dropFirst().reduce(arguments[0]) { ExpressionBinder.binary(op, $0, $1) }
                let tree = ExpressionBinder.balanced(op, arguments[...])
                let plan = ExpressionPlan([chain, tree])
                let (a, b) = try plan.evaluate(on: s, cache: IndicatorCache(), workspace: ExpressionWorkspace()) { (Array($0[0]), Array($0[1])) }
                #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "trial \(trial) \(op): \(a) vs \(b)")
            }
        }
    }

    @Test("the widest expressions the bounds allow, and deeply nested ones, are parsed, bound, planned, evaluated and freed on a 1 MB stack")
    func smallStack() throws {
        let texts = [
            "close >= " + Self.call("max", Array(repeating: "close", count: 4_998)),
            "close >= " + Self.call("max", Array(repeating: "close", count: 9_990)),
            // 30 levels: a debug build's parser takes about 11 KB of stack per level.
            (0..<30).reduce("close") { inner, _ in Self.call("max", [inner] + Array(repeating: "open", count: 60)) } + " > 0",
        ]
        var s = CandleSeries(symbol: "T", timeframe: .day1)
        for i in 0..<50 { s.append(time: Int64(i) * 86_400, open: 10, high: 12, low: 9, close: 11, volume: 1) }
        let candles = s
        final class Outcomes: @unchecked Sendable { var list: [String] = [] }  // written by the thread, read after it signals
        let outcomes = Outcomes()
        let done = DispatchSemaphore(value: 0)
        // A thread of its own with a small stack: the test process would crash, not fail, if a
        // walk of a bound tree recursed once per argument (as when a max was bound into a chain).
        let thread = Thread {
            for text in texts {
                do {
                    let located = try LocatedExpression(text, origin: .setting(.entry))
                    let plan = ExpressionPlan([try located.bind([:])])
                    let last = try plan.evaluate(on: candles, cache: IndicatorCache(), workspace: ExpressionWorkspace()) { $0[0][49] }
                    outcomes.list.append("ran \(last)")
                } catch {
                    outcomes.list.append(String("refused \(error)".prefix(60)))
                }
            }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        done.wait()
        let list = outcomes.list
        #expect(list.count == 3)
        #expect(list.first == "ran 1.0" && list.last == "ran 1.0", "\(list)")
        #expect(list.count == 3 && list[1].contains("expression too large"), "\(list)")
    }
}
