/// The page's stylesheet and scripts: the files in `HTML/Assets`, compiled in by the EmbedAssets
/// build-tool plugin (`EmbeddedAssets`, generated; raw string literals compile in about a
/// second, where SwiftPM's `.embedInCode` resources took minutes). Written for bt; no
/// third-party code. `make test-js` lints them and unit-tests their pure functions in Node.
enum HTMLAssets {
    /// Every script, in order, wrapped in one strict-mode function so nothing leaks to `window`
    /// except the documented test hooks:
    /// - `core.js`: helpers shared by every page: data decoding, UTC calendar, timeframes and
    ///   in-page resampling, rounded ticks, min/max pyramids for decimation, number formats,
    ///   colour scales;
    /// - `chart.js`: the canvas chart: stacked panes on one bar-index axis, layers (candles,
    ///   volume, lines, histograms, areas, trades, fills, markers, regions), per-pixel min/max
    ///   decimation, zoom, pan, box zoom, crosshair with tooltip, timeframe aggregation, log scales;
    /// - `panels.js`: a report's chart object turned into panes (price, volume, indicators,
    ///   equity, drawdown, trade P/L), the equity curve analysed, a replay's chart (mid, quotes,
    ///   fills, position), tables and the page header;
    /// - `pages.js`: the five page kinds (run, chart, sweep with its heatmap, screen, replay) and the
    ///   start-up code that reads the embedded data and exposes the read-only test hooks.
    static var script: String {
        "(function () {\n\"use strict\";\n" + scripts.joined() + "})();\n"
    }

    /// The scripts in the order the page runs them.
    static let scripts = [EmbeddedAssets.coreJS, EmbeddedAssets.chartJS, EmbeddedAssets.panelsJS, EmbeddedAssets.pagesJS]

    /// `style.css`: system fonts only, light and dark themes from `prefers-color-scheme`; the
    /// canvas colours are read from its custom properties.
    static var style: String { EmbeddedAssets.styleCSS }
}
