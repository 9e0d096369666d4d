"""A report page shown inline in Jupyter: the page in a sandboxed iframe of its own document, so
its scripts and styles do not touch the notebook's (scripts allowed; the page fetches nothing)."""
import html


def iframe(page: str, height: int = 820) -> str:
    """`page` (a whole report.html) as the HTML a `_repr_html_` returns."""
    return (f'<iframe class="btcore-report" srcdoc="{html.escape(page, quote=True)}" sandbox="allow-scripts" '
            f'style="width:100%;height:{height}px;border:1px solid #ccc" title="bt report"></iframe>')
