import Backtest

/// The options of `bt replay`.
extension Option {
    static let every = Option("every", kind: .value, valueName: "DURATION", help: "Local time between strategy steps: 100ms, 1s, 250us (default 100ms)")
    static let quoteBid = Option("quote-bid", kind: .value, valueName: "EXPR", help: "Bid quote price from the book at each step, e.g. 'best_bid - 1' (NaN: none)")
    static let quoteAsk = Option("quote-ask", kind: .value, valueName: "EXPR", help: "Ask quote price from the book at each step, e.g. best_ask (NaN: none)")
    static let quoteSize = Option("quote-size", kind: .value, valueName: "QTY", help: "Quantity of each quote (at least the lot)")
    static let maxPosition = Option("max-position", kind: .value, valueName: "QTY", help: "Largest position either way: a side is not quoted when its fill could pass it")
    static let latency = Option("latency", kind: .value, valueName: "ENTRY[,RESPONSE]", help: "Order entry and response latency, e.g. 5ms,5ms (default 0; RESPONSE defaults to ENTRY), or feed:M,C: M x a bt live recording's feed latency + C")
    static let latencyFile = Option("latency-file", kind: .value, valueName: "FILE", help: "CSV of recorded req_ts,exch_ts,resp_ts (epoch ns or ISO-8601): latency interpolated as hftbacktest's IntpOrderLatency")
    static let queue = Option("queue", kind: .value, valueName: "MODEL", help: "Queue position model: riskaverse (default), prob:N (power N > 0) or logprob")
    static let fills = Option("fills", kind: .value, valueName: "MODEL", help: "How resting quotes fill: whole (the default) or partial (in lots, as hftbacktest's PartialFillExchange)")
    static let replayMakerBps = Option(executing: .makerBps).withHelp("Maker fee in bps of each fill's notional; negative: a rebate")
    static let replayLot = Option(executing: .lot).withHelp("Quantity step (default: inferred from the stored quantities)")
}
