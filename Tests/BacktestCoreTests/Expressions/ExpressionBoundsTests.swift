import Testing
@testable import BacktestCore

/// Expressions too wide or too long for the parser are refused with a short message before
/// anything is bound (issue 26: a `max()` of 90,000 arguments overflowed the stack when its
/// bound tree was freed; a 10 MB identifier wrote 30 MB of error text).
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
}
