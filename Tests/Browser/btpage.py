"""Assemble report.html pages in Python exactly as HTMLPage.render does in Swift (dev/test only).

The stylesheet and scripts are the files in Sources/Backtest/IO/Presentation/HTML/Assets, which the
EmbedAssets build-tool plugin compiles into bt, so the pages built here carry the same assets.
"""
import json
import math
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ASSET_DIR = os.path.join(ROOT, "Sources", "Backtest", "IO", "Presentation", "HTML", "Assets")
SCRIPTS = ["core.js", "chart.js", "panels.js", "pages.js"]  # HTMLAssets.scripts, in page order
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
       "base-uri 'none'; form-action 'none'")


def assets():
    """{file name: text} of every asset file."""
    out = {}
    for name in sorted(os.listdir(ASSET_DIR)):
        if name.endswith((".js", ".css")):
            with open(os.path.join(ASSET_DIR, name), encoding="utf-8", newline="") as f:
                out[name] = f.read()
    return out


def script(a=None):
    a = a or assets()
    return "(function () {\n\"use strict\";\n" + "".join(a[name] for name in SCRIPTS) + "})();\n"


def escaped_for_script(text):
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


def escaped_text(s):
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&#39;"))


def render(title, json_text, kind):
    """The same bytes as Swift's HTMLPage.render(title:json:kind:)."""
    assert kind in ("run", "sweep", "screen", "chart", "replay")
    a = assets()
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
            "<meta name=\"generator\" content=\"bt\">\n"
            "<title>" + escaped_text(title) + "</title>\n<style>\n" + a["style.css"] + "</style>\n</head>\n"
            f"<body data-kind=\"{kind}\">\n<div id=\"bt-app\"><noscript>This report needs JavaScript to draw its charts; "
            "the same figures are in the CSV and Markdown files beside it.</noscript></div>\n"
            "<script type=\"application/json\" id=\"bt-data\">" + escaped_for_script(json_text) + "</script>\n"
            "<script>\n" + script(a) + "</script>\n</body>\n</html>\n")


def number(x):
    """A float as bt's JSONWriter writes it: whole numbers without a fraction, null when not finite."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return None
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return int(x)
    return x


def dumps(obj):
    """Compact JSON, floats in shortest round-trip form (Python's repr, like Swift's description)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def write_page(path, title, data):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    html = render(title, dumps(data), data["kind"])
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    return path
