"""Result.report(path) writes the folder `bt run --out` writes, and Result._repr_html_ shows its
page inline: the same files byte for byte (but where the command line is recorded), refusals
of an existing folder, and a page that fetches nothing."""
import html
import json
import re

import pytest

import btcore

from conftest import run_bt

SAME_BYTES = ("equity.csv", "trades.csv", "fills.csv", "stats.csv", "equity.svg", "price.svg")


def test_report_equals_bt_run_out(store, goog, tmp_path):
    cli = tmp_path / "cli"
    run_bt("run", "ma-cross", "GOOG", "--sl", "5%", "--out", str(cli), "--no-chart", "--db", store)
    ours = tmp_path / "ours"
    assert btcore.backtest(goog, strategy="ma-cross", sl="5%").report(ours) == str(ours)
    assert sorted(p.name for p in ours.iterdir()) == sorted(p.name for p in cli.iterdir())
    for name in SAME_BYTES:
        assert (ours / name).read_bytes() == (cli / name).read_bytes(), name
    # stats.json: the same object; bt run also records its command line, which btcore has none of.
    a, b = json.loads((ours / "stats.json").read_text()), json.loads((cli / "stats.json").read_text())
    assert a == b
    # report.md: the same text but the manifest's command line.
    def without_command_line(text: str) -> str:
        return "\n".join(line for line in text.splitlines() if "command" not in line.lower())
    assert without_command_line((ours / "report.md").read_text()) == without_command_line((cli / "report.md").read_text())


def test_report_without_costs_and_refusals(goog, tmp_path):
    run = btcore.backtest(goog, strategy="rsi")
    folder = tmp_path / "r"
    run.report(folder, costs=False)
    assert json.loads((folder / "stats.json").read_text())["costs"] is None
    with pytest.raises(btcore.InputError, match="exists"):
        run.report(folder)
    before = (folder / "stats.json").read_text()
    run.report(folder, force=True)  # replaced, with the cost table this time
    assert json.loads((folder / "stats.json").read_text())["costs"] is not None and before != (folder / "stats.json").read_text()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(btcore.InputError):
        run.report(foreign, force=True)
    assert (foreign / "notes.txt").read_text() == "mine" and len(list(foreign.iterdir())) == 1
    with pytest.raises(btcore.InputError, match="path"):
        run.report("")


def test_repr_html_is_the_page_in_a_sandboxed_frame(store, goog, tmp_path):
    run = btcore.backtest(goog, strategy="ma-cross")
    shown = run._repr_html_()
    assert shown.startswith("<iframe") and 'sandbox="allow-scripts"' in shown
    page = html.unescape(re.search(r'srcdoc="([^"]*)"', shown).group(1))
    assert page == run.html(costs=False)
    run_bt("run", "ma-cross", "GOOG", "--out", str(tmp_path / "cli"), "--no-chart", "--no-costs", "--db", store)
    cli = (tmp_path / "cli" / "report.html").read_text()
    strip = lambda text: re.sub(r"command[^<\n]*", "", text, flags=re.IGNORECASE)  # noqa: E731
    assert strip(page) == strip(cli)
    # Self-contained: no script, style or image from anywhere else.
    assert not re.search(r'(src|href)\s*=\s*["\']?(https?:)?//', page)
