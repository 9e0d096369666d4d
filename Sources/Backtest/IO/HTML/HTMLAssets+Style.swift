extension HTMLAssets {
    /// The page's stylesheet: system fonts only, light and dark themes from `prefers-color-scheme`;
    /// the canvas colours are read from the custom properties below.
    static let style = #"""
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b2230; --muted: #5f6b7a; --faint: #8d97a5; --panel: #f6f7f9; --border: #dfe3e8;
  --grid: #edf0f3; --axis: #c9cfd6; --cross: #56606e; --label-bg: #1b2230; --label-fg: #ffffff;
  --up: #089981; --down: #e0533d; --up-vol: rgba(8,153,129,0.38); --down-vol: rgba(224,83,61,0.38);
  --profit: #1f6fd1; --loss: #e8790c; --fill-mark: #1b2230;
  --equity: #1f6fd1; --bench: #98a1ad; --dd: rgba(224,83,61,0.30); --dd-line: #c4462f;
  --region: rgba(224,83,61,0.08); --region-line: rgba(224,83,61,0.55); --fold: rgba(31,111,209,0.07); --region2: rgba(90,100,115,0.09);
  --accent: #1f6fd1; --accent-fg: #ffffff; --row-hover: #eef3fb; --row-sel: #dce8f9;
  --ind1: #7b3fbf; --ind2: #d81b60; --ind3: #6d4c41; --ind4: #0097a7; --ind5: #9e9d24; --ind6: #546e7a;
  --band: rgba(123,63,191,0.07);
  --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif;
  --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #12161c; --fg: #dfe4ea; --muted: #9aa4b1; --faint: #76808c; --panel: #1a1f27; --border: #2b323c;
    --grid: #1e242d; --axis: #3a424d; --cross: #a7b0bb; --label-bg: #dfe4ea; --label-fg: #12161c;
    --up: #22ab94; --down: #f06a55; --up-vol: rgba(34,171,148,0.40); --down-vol: rgba(240,106,85,0.40);
    --profit: #4f9cf0; --loss: #f59b2e; --fill-mark: #eef1f5;
    --equity: #4f9cf0; --bench: #7d8794; --dd: rgba(240,106,85,0.32); --dd-line: #f06a55;
    --region: rgba(240,106,85,0.10); --region-line: rgba(240,106,85,0.6); --fold: rgba(79,156,240,0.09); --region2: rgba(160,170,185,0.10);
    --accent: #4f9cf0; --accent-fg: #0b0e12; --row-hover: #1d2530; --row-sel: #22324a;
    --ind1: #b388ff; --ind2: #f06292; --ind3: #bcaaa4; --ind4: #4dd0e1; --ind5: #d4d46a; --ind6: #90a4ae;
    --band: rgba(179,136,255,0.09);
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 var(--font); }
body { padding: 14px 18px 32px; }
h1 { font-size: 19px; margin: 0 0 2px; font-weight: 650; letter-spacing: -0.01em; }
h2 { font-size: 14px; margin: 18px 0 6px; font-weight: 650; }
.bt-sub { color: var(--muted); font-size: 13px; margin-bottom: 10px; }
.bt-sub span + span::before { content: "·"; margin: 0 7px; color: var(--faint); }
.bt-layout { display: grid; grid-template-columns: minmax(0, 1fr) 350px; gap: 18px; align-items: start; }
.bt-layout > * { min-width: 0; }
@media (max-width: 1100px) { .bt-layout { grid-template-columns: minmax(0, 1fr); } }
.bt-side { max-height: calc(100vh - 40px); overflow: auto; position: sticky; top: 10px; }
@media (max-width: 1100px) { .bt-side { max-height: none; position: static; } }
.bt-toolbar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 0 0 6px; }
.bt-toolbar .bt-group { display: inline-flex; border: 1px solid var(--border); border-radius: 6px; overflow: hidden; }
.bt-toolbar button { font: 12.5px var(--font); color: var(--fg); background: var(--panel); border: 0; padding: 4px 9px; cursor: pointer; }
.bt-toolbar .bt-group button + button { border-left: 1px solid var(--border); }
.bt-toolbar button:hover { background: var(--row-hover); }
.bt-toolbar button[aria-pressed="true"] { background: var(--accent); color: var(--accent-fg); }
.bt-toolbar .bt-hint { color: var(--faint); font-size: 12px; margin-left: auto; }
.bt-toolbar label { font-size: 12.5px; color: var(--muted); }
.bt-toolbar select { font: 12.5px var(--font); color: var(--fg); background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 3px 6px; }
.bt-chart { position: relative; width: 100%; height: calc(100vh - 120px); min-height: 560px; max-height: 1400px;
  border: 1px solid var(--border); border-radius: 8px; overflow: hidden; outline: none; touch-action: none; user-select: none; }
.bt-chart.bt-small { height: 460px; min-height: 360px; }
.bt-chart:focus-visible { border-color: var(--accent); }
.bt-chart canvas { position: absolute; left: 0; top: 0; }
.bt-chart .bt-message { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; text-align: center;
  padding: 30px; color: var(--muted); background: var(--bg); font-size: 14px; }
.bt-tooltip { position: absolute; z-index: 5; pointer-events: none; background: var(--bg); color: var(--fg); border: 1px solid var(--border);
  border-radius: 6px; box-shadow: 0 4px 14px rgba(0,0,0,0.14); padding: 6px 8px; font-size: 12px; line-height: 1.35; display: none; white-space: nowrap; }
.bt-tooltip .bt-tt-time { font-weight: 650; margin-bottom: 3px; }
.bt-tooltip table { border-collapse: collapse; }
.bt-tooltip th { text-align: left; font-weight: 400; color: var(--muted); padding: 0 10px 0 0; }
.bt-tooltip td { text-align: right; font-family: var(--mono); font-size: 11.5px; padding: 0; font-variant-numeric: tabular-nums; }
.bt-tooltip tr.bt-tt-sep th, .bt-tooltip tr.bt-tt-sep td { padding-top: 4px; }
.bt-tooltip .bt-sw { display: inline-block; width: 8px; height: 8px; border-radius: 2px; margin-right: 5px; vertical-align: 0; }
table.bt-table { border-collapse: collapse; width: 100%; font-size: 12.5px; font-variant-numeric: tabular-nums; }
table.bt-table th, table.bt-table td { padding: 3px 8px; border-bottom: 1px solid var(--border); text-align: left; vertical-align: middle; }
table.bt-table th { color: var(--muted); font-weight: 600; background: var(--panel); position: sticky; top: 0; z-index: 1; }
table.bt-table td.bt-num, table.bt-table th.bt-num { text-align: right; }
table.bt-table td.bt-num { font-family: var(--mono); font-size: 12px; }
table.bt-table tbody tr.bt-click { cursor: pointer; }
table.bt-table tbody tr.bt-click:hover { background: var(--row-hover); }
table.bt-table tbody tr.bt-selected { background: var(--row-sel); }
table.bt-table th.bt-sort { cursor: pointer; white-space: nowrap; }
table.bt-table th.bt-sort:hover { color: var(--fg); }
table.bt-table th[aria-sort="ascending"]::after { content: " ▲"; font-size: 9px; }
table.bt-table th[aria-sort="descending"]::after { content: " ▼"; font-size: 9px; }
.bt-pos { color: var(--profit); }
.bt-neg { color: var(--loss); }
.bt-scroll { max-height: 420px; overflow: auto; border: 1px solid var(--border); border-radius: 8px; }
.bt-scroll table.bt-table th:first-child, .bt-scroll table.bt-table td:first-child { padding-left: 10px; }
.bt-card { border: 1px solid var(--border); border-radius: 8px; padding: 2px 0 4px; margin-bottom: 14px; }
.bt-card h2 { margin: 8px 10px 6px; }
.bt-card table.bt-table th, .bt-card table.bt-table td { border-bottom-color: var(--grid); }
.bt-card table.bt-table tr:last-child td { border-bottom: 0; }
.bt-card table.bt-table th { position: static; }
.bt-card { overflow-x: auto; }
.bt-wide-tables { display: flex; flex-wrap: wrap; gap: 0 18px; margin-top: 18px; align-items: flex-start; }
.bt-wide-tables .bt-card { flex: 1 1 420px; }
.bt-card table.bt-table td.bt-num { white-space: nowrap; }
.bt-side table.bt-table th, .bt-side table.bt-table td { padding: 3px 5px; }
.bt-side table.bt-table th:first-child, .bt-side table.bt-table td:first-child { padding-left: 10px; }
.bt-side table.bt-table th:last-child, .bt-side table.bt-table td:last-child { padding-right: 10px; }
.bt-side table.bt-table td.bt-num { font-size: 11.5px; }
.bt-note { color: var(--muted); font-size: 12px; margin: 6px 10px; }
.bt-more { margin: 8px 0; font: 12.5px var(--font); color: var(--accent); background: none; border: 1px solid var(--border); border-radius: 6px; padding: 4px 10px; cursor: pointer; }
details.bt-manifest { margin: 0 0 10px; font-size: 12.5px; }
details.bt-manifest summary { cursor: pointer; color: var(--muted); }
details.bt-manifest table { margin-top: 6px; }
details.bt-manifest td { font-family: var(--mono); font-size: 12px; word-break: break-all; }
.bt-heat-wrap { position: relative; width: 100%; border: 1px solid var(--border); border-radius: 8px; overflow: hidden; }
.bt-heat-wrap canvas { display: block; }
.bt-spark { display: block; }
.bt-status-error { color: var(--loss); }
.bt-sel-title { font-size: 13px; color: var(--muted); margin: 4px 0 6px; min-height: 19px; }
.bt-sel-title b { color: var(--fg); }
code { font-family: var(--mono); font-size: 12px; background: var(--panel); padding: 1px 4px; border-radius: 4px; }
"""#
}
