import Foundation

/// A test server on 127.0.0.1 for one test: a program that prints `PORT n` once it listens.
/// Stopped by `stop()` (or when dropped): its standard input is closed first, since a child
/// may not see SIGTERM (Foundation's `Process` can start it with the signal blocked, so the
/// servers also exit when their standard input closes), then SIGTERM, then SIGKILL after 10 s.
package final class PortServer: @unchecked Sendable {
    package let port: Int
    package let process = Process()
    private let stdin = Pipe()

    /// Starts `executable` with `arguments` (and `environment` added to this process's) and
    /// waits for its `PORT n` line.
    /// - Throws: `PortServerError` when it prints anything else first (`name` says what it is).
    package init(_ name: String, executable: String, arguments: [String], environment: [String: String] = [:]) throws {
        let stdout = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        try process.run()
        var line = [UInt8]()
        while let byte = try stdout.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw PortServerError(description: "\(name) printed '\(text)' instead of 'PORT n' (is python3 installed?)")
        }
        self.port = port
    }

    deinit { stop() }

    package func stop() {
        guard process.isRunning else { return }
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

package struct PortServerError: Error, CustomStringConvertible {
    package let description: String
}
