import Foundation

/// A fill of the replay goldens (`Tests/Fixtures/replay/goldens*.json`, hftbacktest's), as they
/// write it: `[exchange_ns, side, price, quantity, order_id]`.
package struct ReplayGoldenFill: Decodable, Comparable, Sendable {
    package var exchangeNs: Int64
    package var side: String
    package var price: Double
    package var quantity: Double
    package var orderID: Int

    package init(exchangeNs: Int64, side: String, price: Double, quantity: Double, orderID: Int) {
        (self.exchangeNs, self.side, self.price, self.quantity, self.orderID) = (exchangeNs, side, price, quantity, orderID)
    }

    package init(from decoder: Decoder) throws {
        var row = try decoder.unkeyedContainer()
        self.init(exchangeNs: try row.decode(Int64.self), side: try row.decode(String.self), price: try row.decode(Double.self),
                  quantity: try row.decode(Double.self), orderID: try row.decode(Int.self))
    }

    /// By exchange time, order number, then quantity (pieces of one order at one time).
    package static func < (a: Self, b: Self) -> Bool {
        (a.exchangeNs, a.orderID, a.quantity, a.side, a.price) < (b.exchangeNs, b.orderID, b.quantity, b.side, b.price)
    }

    private struct Case: Decodable { var name: String, fills: [ReplayGoldenFill] }
    private struct File: Decodable {
        var cases: [Case]
        var latencyFileCases: [Case]?
        enum CodingKeys: String, CodingKey { case cases, latencyFileCases = "latency_file_cases" }
    }

    /// Each case's fills by its name, from `cases` and `latency_file_cases`. Read with `JSONDecoder`: JSONSerialization reads some
    /// 17-digit numbers a unit in the last place off, and partial pieces have such digits.
    package static func byCase(_ data: Data) throws -> [String: [ReplayGoldenFill]] {
        let file = try JSONDecoder().decode(File.self, from: data)
        return Dictionary(uniqueKeysWithValues: (file.cases + (file.latencyFileCases ?? [])).map { ($0.name, $0.fills) })
    }
}
