import Backtest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Entry point: dispatch to a command; `error: ...` on stderr with exit 2 for usage and bad
/// input, 1 for internal failures.
Allocator.keepFreedMemory()
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    try Dispatcher.run(arguments)
    status = 0
} catch let e as UsageError {
    Diagnostics.line("error: \(e)")
    status = 2
} catch let e as InputError {
    Diagnostics.line("error: \(ErrorMessage.text(e, commandLine: ["bt"] + arguments))")
    status = 2
} catch let e as StoreError {
    Diagnostics.line("error: \(ErrorMessage.text(e))")
    status = 1
} catch {
    Diagnostics.line("error: \(error)")
    status = 1
}
Output.flush()
// Hidden folders of interrupted runs that were left alone (`StagingArea`), after everything else.
for note in StagingArea.notes() { Diagnostics.line("note: \(note)") }
exit(status)
