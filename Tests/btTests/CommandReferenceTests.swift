import Foundation
import Testing
import TestSupport

/// `docs/reference/commands.md` is generated from the command and option tables; a change to a
/// table that is not regenerated into the committed file fails here.
@Suite("the committed command reference")
struct CommandReferenceTests {
    static let path = "docs/reference/commands.md"
    static let regenerate = "swift run bt help --markdown > docs/reference/commands.md"

    @Test("docs/reference/commands.md is what bt help --markdown prints")
    func commandReferenceIsCurrent() throws {
        let r = try BT.run(["help", "--markdown"])
        #expect(r.status == 0, "\(r.stderr)")
        let committed = try Repository.text(Self.path)
        if committed != r.stdout {
            let committedLines = committed.split(separator: "\n", omittingEmptySubsequences: false)
            let generatedLines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(committedLines, generatedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(committedLines.count, generatedLines.count)
            let line = first < generatedLines.count ? String(generatedLines[first]) : "(end of output)"
            Issue.record("""
                \(Self.path) is stale: it first differs from 'bt help --markdown' at line \(first + 1) \
                (bt prints: \(line)). Regenerate it with: \(Self.regenerate)
                """)
        }
    }

    @Test("bt help --markdown lists every command with its usage and options, and bt help names it")
    func markdownCoversEveryCommand() throws {
        let md = try BT.run(["help", "--markdown"])
        #expect(md.status == 0)
        let overview = try BT.run(["help"])
        let lines = overview.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        for name in lines.drop(while: { $0 != "COMMANDS:" }).dropFirst().prefix(while: { !$0.isEmpty }) {
            // "  data import    Import ..." -> "data import": words up to the padding.
            let command = name.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0]
            #expect(md.stdout.contains("\n## bt \(command)\n"), "no section for bt \(command)")
        }
        #expect(md.stdout.contains("| `--fee-bps BPS` |"))
        #expect(overview.stdout.contains("bt help --markdown"))
        #expect(overview.stdout.hasSuffix("See 'bt help <command>' for details.\n"))
        let again = try BT.run(["help", "--markdown"])
        #expect(again.stdout == md.stdout, "the output is deterministic")
        let extra = try BT.run(["help", "--markdown", "run"])
        #expect(extra.status == 2)
    }
}
