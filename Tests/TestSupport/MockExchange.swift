import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The local mock exchange (`Tests/Fixtures/http/mock_exchange.py`, see docs/design/mock-exchange.md)
/// on 127.0.0.1, one per test: started with `arguments`, stopped by `stop()` or when the test
/// process ends (its standard input closes).
package final class MockExchange: @unchecked Sendable {
    package let port: Int
    private let server: PortServer

    /// Starts the mock and waits for its `PORT n` line.
    package init(_ arguments: [String] = []) throws {
        // libcurl reads proxy variables: talk to 127.0.0.1 directly even behind a proxy.
        setenv("no_proxy", "127.0.0.1,localhost", 1)
        do {
            server = try PortServer("the mock exchange", executable: "/usr/bin/env",
                                    arguments: ["python3", Repository.path("Tests/Fixtures/http/mock_exchange.py"),
                                                "--exit-on-stdin-eof", "--max-lifetime", "600"] + arguments,
                                    environment: ["PYTHONDONTWRITEBYTECODE": "1"])
        } catch let e as PortServerError {
            throw MockExchangeError(description: e.description)
        }
        port = server.port
    }

    /// Stops the mock (its standard input closed, and SIGTERM) and waits for it; one that has
    /// not exited after 10 s (a wedged server) gets SIGKILL, so no test waits on it forever.
    package func stop() { server.stop() }

    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The body of GET `path` (with its query).
    package func get(_ path: String) throws -> Data {
        try request(path, body: nil)
    }

    /// POSTs `json` to `/_control`: settings, faults (docs/design/mock-exchange.md, "Control").
    package func control(_ json: String) throws {
        _ = try request("/_control", body: Data(json.utf8))
    }

    /// The data requests served so far, as decoded JSON objects.
    package func requests() throws -> [[String: Any]] {
        (try JSONSerialization.jsonObject(with: get("/_requests")) as? [[String: Any]]) ?? []
    }

    /// Klines requests served so far, as their query parameters.
    package func klinesQueries() throws -> [[String: String]] {
        try requests().filter { $0["path"] as? String == "/api/v3/klines" }.map { ($0["query"] as? [String: String]) ?? [:] }
    }

    private func request(_ path: String, body: Data?) throws -> Data {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = body
        }
        final class Slot: @unchecked Sendable { var result: Result<Data, Error>? }
        let slot = Slot()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                slot.result = .failure(error)
            } else if let http = response as? HTTPURLResponse, http.statusCode != 200 {
                let text = String(decoding: data ?? Data(), as: UTF8.self)
                slot.result = .failure(MockExchangeError(description: "\(path): HTTP \(http.statusCode): \(text)"))
            } else {
                slot.result = .success(data ?? Data())
            }
            done.signal()
        }.resume()
        // A control request answers in milliseconds; a wedged mock must fail the test, not hang it.
        if done.wait(timeout: .now() + 60) == .timedOut {
            throw MockExchangeError(description: "\(path): the mock exchange did not answer in 60 s")
        }
        return try slot.result!.get()
    }
}

package struct MockExchangeError: Error, CustomStringConvertible {
    package var description: String
}
