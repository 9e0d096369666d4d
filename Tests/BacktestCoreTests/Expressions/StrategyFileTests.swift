import Testing
import TestSupport
@testable import BacktestCore

@Suite("Strategy files")
struct StrategyFileTests {
    static let example = """
        # A comment.
        name = my-cross
        summary = Fast over slow

        [params]
        fast = int 10 >= 1 : Fast period
        slow = int 30 >=2 <= 500 : Slow period
        k = number 1.5 > 0 < 10
        type = sma|ema ema : Average

        [rules]
        entry = cross_above($type(close, $fast),
            $type(close, $slow))
        exit = cross_below($type(close, $fast), $type(close, $slow))
        require = $fast < $slow
        require = $k > 1
        """

    @Test("a file gives name, summary, typed parameters with bounds and defaults, and the rules")
    func parses() throws {
        let f = try StrategyFile(parsing: Self.example, path: "x/my.bt")
        #expect(f.name == "my-cross" && f.summary == "Fast over slow")
        #expect(f.parameters.map(\.name) == ["fast", "slow", "k", "type"])
        #expect(f.parameters[0].kind == .int && f.parameters[0].defaultValue == .number(10) && f.parameters[0].help == "Fast period")
        #expect(f.parameters[1].lower == StrategyFile.Bound(2, inclusive: true) && f.parameters[1].upper == StrategyFile.Bound(500, inclusive: true))
        #expect(f.parameters[2].boundsText == "> 0 < 10" && f.parameters[2].help == "")
        #expect(f.parameters[3].kind == .choice(["sma", "ema"]) && f.parameters[3].defaultValue == .word("ema"))
        #expect(f.rules[.entry]?.text == "cross_above($type(close, $fast),\n$type(close, $slow))")
        #expect(f.rules.requirements.count == 2)
        // The name defaults to the file name.
        let g = try StrategyFile(parsing: "[rules]\nentry = close > 1\nexit = close < 1\n", path: "/a/b/breakout.bt")
        #expect(g.name == "breakout" && g.parameters.isEmpty)
    }

    @Test("bad files are errors with the file and line",
          arguments: [
            ("name = x\nfoo = 1", 2, "unknown key 'foo' before the sections"),
            ("summary = a\nsummary = b", 2, "'summary' is given twice"),
            ("name = a b", 1, "name 'a b' may use only letters"),
            ("[parms]", 1, "unknown section '[parms]'; did you mean '[params]'?"),
            ("[params]\n[params]", 2, "section '[params]' appears twice"),
            ("[params\n", 1, "a section header is '[name]'"),
            ("[params]\nfast 10", 2, "expected 'key = value'"),
            ("[params]\nfast = float 10", 2, "unknown parameter type 'float'"),
            ("[params]\nfast = int 2.5", 2, "must be a whole number, got '2.5'"),
            ("[params]\nfast = int", 2, "expected 'fast = TYPE DEFAULT"),
            ("[params]\nfast = int 0 >= 1", 2, "the default 0 of 'fast' is outside its bounds (>= 1)"),
            ("[params]\nfast = int 5 >= 1 >= 2", 2, "'fast' has two lower bounds"),
            ("[params]\nfast = int 5 >= x", 2, "bound '>=' of 'fast' needs a number"),
            ("[params]\nt = sma|ema wma", 2, "the default of 't' must be one of sma|ema"),
            ("[params]\nt = sma| sma", 2, "choice 'sma|' must list distinct names"),
            ("[params]\nt = sma|ema sma > 1", 2, "a choice parameter takes no bounds"),
            ("[params]\n2x = int 1", 2, "parameter name '2x' must be letters"),
            ("[params]\na = int 1\na = int 2", 3, "parameter 'a' is declared twice"),
            ("[rules]\nentry = close > 1\nentry = close > 2", 3, "rule 'entry' is given twice"),
            ("[rules]\nentyr = close > 1", 2, "unknown key 'entyr' in [rules]; did you mean 'entry'?"),
            ("  continued", 1, "an indented line continues a rule"),
            ("\n\n[rules]\nentry = close >\nexit = close < 1", 4, "expected a value, found the end of the expression"),
            ("[rules]\nentry = close > 1 and\n  smaa(close, 3) > 1\nexit = close < 1", 3, "unknown function 'smaa'"),
            ("[rules]\nentry = close + 1\nexit = close < 1", 2, "the entry rule needs a condition"),
            ("[rules]\nentry = close > $n\nexit = close < 1", 2, "undefined parameter '$n' (no parameters are defined)"),
            ("[params]\nn = int 3\n[rules]\nentry = close > 1\nexit = close < 1\nrequire = close > $n", 6, "a requirement may use parameters only"),
            ("[rules]\nentry = close > 1\nexit = close < 1\nshort_entry = close < 1", nil, "short rules come in pairs"),
            ("[rules]\nexit = close < 1", nil, "no 'entry' rule"),
          ] as [(String, Int?, String)])
    func errors(text: String, line: Int?, reason: String) {
        do {
            _ = try StrategyFile(parsing: text, path: "bad.bt")
            Issue.record("parsed: \(text)")
        } catch let e as InputError {
            #expect(e.file == "bad.bt", "\(e)")
            #expect(e.line == line, "\(e)")
            #expect(e.reason.contains(reason), "\(e.reason)")
        } catch {
            Issue.record("not an InputError: \(error)")
        }
    }

    @Test("an expression error in a file shows the expression's line with a caret")
    func caretInFile() throws {
        let text = "[rules]\nentry = close > 1 and\n  smaa(close, 3) > 1\nexit = close < 1"
        #expect(throws: InputError("unknown function 'smaa'; did you mean 'sma'?\n  smaa(close, 3) > 1\n  ^^^^", file: "f.bt", line: 3)) {
            try StrategyFile(parsing: text, path: "f.bt")
        }
    }

    @Test("random lines never crash the strategy file parser, and every refusal is an InputError (bounded fuzz)")
    func fuzz() {
        let pieces = ["[params]", "[rules]", "[x]", "name = a", "summary = s", "fast = int 10 >= 1 : h", "t = sma|ema sma",
                      "k = number 2 > 0 <= 5", "entry = cross_above(sma(close, $fast), close)", "exit = close < 1",
                      "require = $fast > 2", "  and close > 2", "short_entry = close < 2", "short_exit = close > 3",
                      "= x", "a = b = c", "fast = int 1e999", "x = number nan", "\u{FEFF}name = b", "entry = ((((", "\r", "#"]
        var rng = SplitMix64(seed: 15)
        var parsed = 0, refused = 0
        for _ in 0..<4_000 {
            let count = Int(rng.next() % 9)
            var text = (0..<count).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined(separator: "\n")
            if rng.next() % 4 == 0 {
                text += String(decoding: (0..<Int(rng.next() % 20)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, as: UTF8.self)
            }
            do {
                _ = try StrategyFile(parsing: text, path: "fuzz.bt")
                parsed += 1
            } catch is InputError {
                refused += 1
            } catch {
                Issue.record("not an InputError: \(error)")
            }
        }
        #expect(parsed + refused == 4_000 && refused > 1_000, "parsed \(parsed), refused \(refused)")
    }
}
