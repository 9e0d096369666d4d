import Backtest

/// Every option of bt, declared once. Command tables list these constants (some with their own
/// help text); `ParsedArguments` is queried by them.
extension Option {
    // MARK: - Global

    static let db = Option("db", kind: .value, valueName: "PATH", help: "SQLite store (default $BT_DB or data/bt.sqlite)")
    static let help = Option("help", kind: .flag, help: "Show help for this command")
    static let json = Option("json", kind: .flag, help: "Print JSON instead of text")
    static let list = Option("list", kind: .flag, help: "Print the names and exit")

    // MARK: - Candles

    static let timeframe = Option("timeframe", kind: .value, valueName: "TF",
                                  help: "Resample to 1m 5m 15m 30m 1h 4h 1d 1w 1M (default: stored)")
    static let from = Option("from", kind: .value, valueName: "DATE", help: "First bar time, inclusive (YYYY-MM-DD or ISO-8601)")
    static let to = Option("to", kind: .value, valueName: "DATE", help: "Last bar time, inclusive")

    // MARK: - Import and synthetic data (the import's own options: Options+Import.swift)

    static let symbol = Option("symbol", kind: .value, valueName: "S",
                               help: "Symbol for every file (default: file name stem, upper case)")
    /// `--symbols N`: how many symbols to generate (not to be confused with the list `symbols`).
    static let symbolCount = Option("symbols", kind: .value, valueName: "N", help: "Number of symbols")
    static let bars = Option("bars", kind: .value, valueName: "N", help: "Number of bars")
    static let monteCarlo = Option("monte-carlo", kind: .value, valueName: "N",
                                   help: "N resamples of the trades and of the bar returns: percentiles of equity, drawdown, CAGR")
    static let ruin = Option("ruin", kind: .value, valueName: "PCT", help: "The drawdown --monte-carlo counts as ruin (default 50%)")
    static let seed = Option("seed", kind: .value, valueName: "S", help: "Random seed (default 1)")
    static let book = Option("book", kind: .flag, help: "Also store a recorded-style order book for each symbol")
    static let funding = Option("funding", kind: .flag, help: "The symbol's funding rates (time, rate, mark_price)")
    static let kind = Option("kind", kind: .value, valueName: "KIND", help: "What is traded: spot, perp, future or inverse-perp (--instrument of its runs)")
    static let clear = Option("clear", kind: .flag, help: "Remove the stored settings (with settings given: replace them all)")

    // MARK: - Indicators and charts

    static let ind = Option("ind", kind: .repeated, valueName: "SPEC",
                            help: "Indicator, e.g. sma:20, bb:20,2, rsi:14, macd:12,26,9 (repeatable)")
    static let last = Option("last", kind: .value, valueName: "N", help: "Show only the last N bars")
    static let html = Option("html", kind: .value, valueName: "FILE",
                             help: "Write an interactive chart page to FILE instead of drawing in the terminal")
    static let width = Option("width", kind: .value, valueName: "W",
                              help: "Chart width in columns (default: terminal, else $COLUMNS, else 80)")
    static let height = Option("height", kind: .value, valueName: "H",
                               help: "Chart height in rows (default: terminal, else $LINES, else 24)")
    static let color = Option("color", kind: .value, valueName: "WHEN",
                              help: "Colour: always, never or auto (auto: a terminal and NO_COLOR unset)")

    // MARK: - Strategy and execution

    static let param = Option("param", kind: .repeated, valueName: "NAME=VALUE", help: "Strategy parameter; repeat for several")
    // Execution settings' options that commands name themselves (the rest are made from the
    // library's table, `ExecutionOptions`).
    static let cash = Option(executing: .cash)
    static let short = Option(executing: .short)
    static let maxParticipation = Option(executing: .maxParticipation)
    static let depth = Option(executing: .depth)

    // MARK: - Expression strategies and signals

    static let entry = Option("entry", kind: .value, valueName: "EXPR",
                              help: "Entry condition, e.g. \"cross_above(sma(close, 10), sma(close, 30))\"")
    static let exit = Option("exit", kind: .value, valueName: "EXPR", help: "Exit condition")
    static let shortEntry = Option("short-entry", kind: .value, valueName: "EXPR",
                                   help: "Short entry condition (with --short-exit and --short)")
    static let shortExit = Option("short-exit", kind: .value, valueName: "EXPR", help: "Short exit condition")
    static let signals = Option("signals", kind: .value, valueName: "FILE",
                                help: "Signals from a CSV file: time,entry,exit[,short_entry,short_exit]")
    static let maxStale = Option("max-stale", kind: .value, valueName: "DURATION",
                                 help: "Carry another symbol's value read with @ this long after its bar (36h, 3d; default: its bar length)")
    static let strategies = Option("strategies", kind: .value, valueName: "DIR",
                                   help: "Strategy files directory (default $BT_STRATEGIES, else strategies/)")
    static let show = Option("show", kind: .repeated, valueName: "EXPR", help: "A value to show for each symbol (repeatable)")
    static let at = Option("at", kind: .value, valueName: "DATE",
                           help: "Look at the last bar at or before DATE (default: the last bar)")

    // MARK: - Results and reports

    static let periodsPerYear = Option(executing: .periodsPerYear)
    static let out = Option("out", kind: .value, valueName: "DIR", help: "Output directory")
    static let report = Option("report", kind: .flag,
                               help: "Write the report into notebooks-out/<strategy>-<symbol>-<UTC time>/")
    static let force = Option("force", kind: .flag, help: "Write into an existing output directory")
    static let noChart = Option("no-chart", kind: .flag, help: "Do not draw the equity chart")
    static let noCosts = Option("no-costs", kind: .flag, help: "Skip the cost-sensitivity re-runs (table, break-even fee)")

    // MARK: - Screens and sweeps

    /// `--symbols A,B,...`: a list of stored symbols.
    static let symbols = Option("symbols", kind: .value, valueName: "A,B,...", help: "Symbols to screen")
    static let all = Option("all", kind: .flag, help: "Screen every stored symbol")
    static let rank = Option("rank", kind: .value, valueName: "STAT", help: "Statistic to rank by (default sharpe)")
    static let objective = Option("objective", kind: .value, valueName: "STAT",
                                  help: "Statistic a sweep optimises and ranks by (default sharpe)")
    static let objectives = Option("objectives", kind: .value, valueName: "A,B,...",
                                   help: "Two or more statistics: mark their Pareto front in sweep.csv and report.html")
    static let top = Option("top", kind: .value, valueName: "N", help: "Rows in the ranked table (default 20)")
    static let minTrades = Option("min-trades", kind: .value, valueName: "N",
                                  help: "Rank only symbols with at least N trades (default 10); thinner rows follow, marked")
    static let grid = Option("grid", kind: .repeated, valueName: "NAME=RANGE",
                             help: "Swept parameter: start:stop:step, a,b,c, a value, or (random search) start:stop")
    static let search = Option("search", kind: .value, valueName: "grid|random|bayes",
                               help: "Every combination of the grid (default), --trials drawn at random from its axes, "
                                   + "or --trials chosen one by one by a Gaussian-process model (bayes)")
    static let trials = Option("trials", kind: .value, valueName: "N", help: "Distinct combinations a random or Bayesian search evaluates")
    static let `where` = Option("where", kind: .value, valueName: "EXPR",
                                help: "Keep combinations where EXPR holds, e.g. \"fast<slow\"")
    static let walkForward = Option("walk-forward", kind: .value, valueName: "K",
                                    help: "Split the range into K folds: choose in-sample, test on the next fold")
    static let cv = Option("cv", kind: .value, valueName: "cpcv:N,K", help: "Combinatorial purged cross-validation: N groups, K tested per split")
    static let purge = Option("purge", kind: .value, valueName: "BARS", help: "With --cv: train bars removed before and after each test block")
    static let embargo = Option("embargo", kind: .value, valueName: "BARS", help: "With --cv: train bars removed after each test block, beyond --purge")
    static let pboBlocks = Option("pbo-blocks", kind: .value, valueName: "S",
                                  help: "CSCV blocks for the probability of backtest overfitting (default 16; 0 = off)")

    // MARK: - Portfolios

    static let maxPositions = Option("max-positions", kind: .value, valueName: "K",
                                     help: "Most positions held at once (default: one per symbol)")
    /// `--rank EXPR` of `bt portfolio` (the same option as a sweep's `--rank METRIC`).
    static let rankExpression = Option("rank", kind: .value, valueName: "EXPR",
                                       help: "Rank of each symbol on its signal bar, highest first, e.g. \"roc(close, 126)\"")
    /// `--portfolio-rank EXPR`: the portfolio's rank in `bt sweep --portfolio` (whose `--rank` is the metric).
    static let portfolioRank = Option("portfolio-rank", kind: .value, valueName: "EXPR",
                                      help: "The portfolio's rank of each symbol (bt portfolio's --rank), e.g. \"roc(close, $n)\"")
    static let weight = Option("weight", kind: .value, valueName: "W",
                               help: "Position weights: equal (default, 1/K), inverse-vol or rank")
    static let rebalance = Option("rebalance", kind: .value, valueName: "WHEN",
                                  help: "Restore target weights: never (default; 1M with --rotate), 1w, 1M or every N bars")
    static let rotate = Option("rotate", kind: .flag, help: "Hold the top K symbols by --rank at each rebalance, ignoring signals")
    static let neutral = Option("neutral", kind: .flag, help: "With --short: long notional = short notional (see bt help portfolio)")
    static let portfolio = Option("portfolio", kind: .flag, help: "Sweep the symbols as one portfolio (the options of 'bt portfolio')")

    // MARK: - Calibration

    static let holdout = Option("holdout", kind: .value, valueName: "SHARE",
                                help: "Share of the book's time range held out for testing (default 0.5)")
    static let sizes = Option("sizes", kind: .value, valueName: "Q1,Q2,...",
                              help: "Order sizes of the held-out test (default: 1-3-10 ladder from A/100 to 10 A)")

    // MARK: - Benchmarks

    static let `repeat` = Option("repeat", kind: .value, valueName: "N", help: "Runs; the best counts (default 3)")
    static let runs = Option("runs", kind: .value, valueName: "N", help: "Timed runs")
    static let candles = Option("candles", kind: .value, valueName: "N", help: "Number of candles (default 10000)")
    static let returns = Option("returns", kind: .value, valueName: "N", help: "Returns in the series (default 5000)")

    // MARK: - Fetching

    static let interval = Option("interval", kind: .value, valueName: "TF", help: "Bar interval: 1m 5m 15m 30m 1h 4h 1d 1w 1M")
    static let apiKey = Option("api-key", kind: .value, valueName: "KEY", help: "API key (default $ALPHAVANTAGE_API_KEY)")
    static let baseURL = Option("base-url", kind: .value, valueName: "URL", help: "The service's address (a mirror; tests)")
    static let timeout = Option("timeout", kind: .value, valueName: "S",
                                help: "Seconds without an answer before a request is retried (default 30)")
    static let attempts = Option("attempts", kind: .value, valueName: "N",
                                 help: "Tries per request, for 5xx, timeouts, lost connections, 429/418 (default 5)")
    static let maxWait = Option("max-wait", kind: .value, valueName: "S",
                                help: "Longest rate-limit wait to sit out; a longer one fails at once (default 300)")
}
