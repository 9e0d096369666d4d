import Testing
import TestSupport

@Suite("Snapshot diffs")
struct TextDiffTests {
    @Test("equal texts have no diff; a changed line shows its context, both sides and the column")
    func changedLine() throws {
        #expect(TextDiff.describe(expected: "a\nb", actual: "a\nb") == nil)
        let diff = try #require(TextDiff.describe(expected: "1\n2\n3\n4\n5\n6", actual: "1\n2\n3\n4x\n5\n6"))
        #expect(diff == """
            first difference at line 4 (expected 6 lines, got 6):
              1
              2
              3
            - 4
            + 4x
              (line 4 differs from column 2)
            """)
    }

    @Test("an inserted line shows as one line, not as the rest of the text")
    func insertion() throws {
        let diff = try #require(TextDiff.describe(expected: "a\nb\nc\nd", actual: "a\nb\nnew\nc\nd"))
        #expect(diff == """
            first difference at line 3 (expected 4 lines, got 5):
              a
              b
            + new
            """)
        let long = try #require(TextDiff.describe(expected: "", actual: (1...20).map(String.init).joined(separator: "\n"), shown: 2))
        #expect(long.contains("+ ... 18 more"))
    }
}
