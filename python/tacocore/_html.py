"""Notebook display (``_repr_html_``) of TacoDataset and TacoDataFrame.

As tacoreader's: a header "<TacoDataset> title (N samples, L levels)", collapsible sections for
the hierarchy, the attributes and the fields of each level, and the PIT drawn as an SVG tree (one
box per distinct node: the root samples, then each child id of every depth, with its type).
Every value is HTML-escaped.
"""

from __future__ import annotations

import html
from typing import Any, List, Tuple

_STYLE = """<style>
.taco-dataset-wrap{font-family:sans-serif;font-size:13px;line-height:1.4}
.taco-header{display:flex;gap:.5em;align-items:baseline;margin-bottom:.4em}
.taco-obj-type{color:#666}.taco-obj-name{font-weight:bold}.taco-obj-dims{color:#666}
.taco-body{display:flex;gap:1.5em;flex-wrap:wrap}.taco-sections{min-width:22em}
.taco-section summary{cursor:pointer;font-weight:bold}
.taco-attrs-table td{padding:0 .6em 0 0;vertical-align:top}.taco-attr-name{color:#555}
</style>"""

_BOX_W, _BOX_H, _GAP_X, _GAP_Y = 120, 34, 16, 30


def _pit_nodes(pit: Any) -> List[List[Tuple[str, str]]]:
    """Rows of the tree: [[(label, type)]] per depth, the root first."""
    rows = [[(f"{pit.root.get('n', '?')} samples", str(pit.root.get("type", "?")))]]
    for depth in sorted(pit.hierarchy, key=int):
        row = []
        for pattern in pit.hierarchy[depth]:
            row.extend((str(i), str(t)) for i, t in zip(pattern.get("id", []), pattern.get("type", [])))
        rows.append(row)
    return rows


def pit_svg(pit: Any) -> str:
    """The PIT as an SVG: boxes per depth, FOLDERs blue and FILEs green, edges from each depth's
    FOLDER boxes to the next depth."""
    rows = _pit_nodes(pit)
    width = max(len(r) for r in rows) * (_BOX_W + _GAP_X) + _GAP_X
    height = len(rows) * (_BOX_H + _GAP_Y) + _GAP_Y
    centers: List[List[Tuple[float, float]]] = []
    parts = []
    for d, row in enumerate(rows):
        y = _GAP_Y + d * (_BOX_H + _GAP_Y)
        span = len(row) * (_BOX_W + _GAP_X) - _GAP_X
        x0 = (width - span) / 2
        centers.append([])
        for k, (label, kind) in enumerate(row):
            x = x0 + k * (_BOX_W + _GAP_X)
            centers[-1].append((x + _BOX_W / 2, y))
            fill = "#dbe9f6" if kind == "FOLDER" else "#dff3e0"
            text = label if len(label) <= 16 else label[:15] + "…"
            parts.append(
                f'<g class="taco-node"><title>{html.escape(label)} ({html.escape(kind)})</title>'
                f'<rect x="{x:.0f}" y="{y}" width="{_BOX_W}" height="{_BOX_H}" rx="5" fill="{fill}" '
                f'stroke="#888"/><text x="{x + _BOX_W / 2:.0f}" y="{y + 14}" text-anchor="middle" '
                f'font-size="11">{html.escape(text)}</text><text x="{x + _BOX_W / 2:.0f}" y="{y + 27}" '
                f'text-anchor="middle" font-size="9" fill="#555">{html.escape(kind)}</text></g>')
    edges = []
    for d in range(1, len(rows)):
        parents = [c for c, (_, kind) in zip(centers[d - 1], rows[d - 1]) if kind == "FOLDER"]
        for px, py in parents:
            for cx, cy in centers[d]:
                edges.append(f'<line x1="{px:.0f}" y1="{py + _BOX_H}" x2="{cx:.0f}" y2="{cy}" stroke="#aaa"/>')
    return (f'<svg class="taco-graph-svg" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height}" viewBox="0 0 {width:.0f} {height}">{"".join(edges)}{"".join(parts)}</svg>')


def _section(title: str, count: str, body: str, open_: bool = False) -> str:
    return (f'<details class="taco-section"{" open" if open_ else ""}><summary>'
            f'<span class="taco-section-title">{html.escape(title)}</span> '
            f'<span class="taco-section-count">({html.escape(count)})</span></summary>'
            f'<div class="taco-section-content">{body}</div></details>')


def dataset_html(ds: Any) -> str:
    """The HTML of a TacoDataset: header, hierarchy, attributes, fields and the PIT tree."""
    from ._exceptions import TacoError
    from ._pit_schema import PITSchema

    e = html.escape
    try:
        pit = ds.pit_schema
    except TacoError:  # a view whose query fails: the whole dataset's structure
        pit = PITSchema(ds.collection.get("taco:pit_schema", {}))
    levels = pit.max_depth() + 1
    header = (f'<div class="taco-header"><div class="taco-obj-type">&lt;TacoDataset&gt;</div>'
              f'<div class="taco-obj-name">{e(ds.title or ds.id)}</div>'
              f'<div class="taco-obj-dims">({pit.root.get("n")} samples, {levels} levels)</div></div>')
    hierarchy = "".join(
        f"<li>Level {d}: " + e(", ".join(f"{i} ({t})" for i, t in row)) + "</li>"
        for d, row in enumerate(_pit_nodes(pit)))
    ext = ds.extent or {}
    attrs = [("id", ds.id), ("version", ds.version), ("format", ds.format),
             ("description", ds.description), ("tasks", ", ".join(ds.tasks)),
             ("licenses", ", ".join(ds.licenses))]
    if ext.get("spatial"):
        attrs.append(("spatial extent", ", ".join(f"{v:.2f}" for v in ext["spatial"])))
    if ext.get("temporal"):
        attrs.append(("temporal extent", " → ".join(str(t) for t in ext["temporal"])))
    table = "".join(f"<tr><td class='taco-attr-name'>{e(k)}</td><td class='taco-attr-value'>{e(str(v))}</td></tr>"
                    for k, v in attrs)
    fields = "".join(f"<li><b>{e(level)}</b>: {e(', '.join(str(f[0]) for f in cols))}</li>"
                     for level, cols in ds.field_schema.items())
    sections = (_section("Hierarchy:", f"{levels} levels", f"<ul class='taco-hierarchy-list'>{hierarchy}</ul>", True)
                + _section("Attributes:", str(len(attrs)), f"<table class='taco-attrs-table'>{table}</table>")
                + _section("Fields by level:", str(len(ds.field_schema)), f"<ul>{fields}</ul>"))
    return (f'{_STYLE}<div class="taco-dataset-wrap">{header}<div class="taco-body">'
            f'<div class="taco-sections">{sections}</div><div class="taco-graph">{pit_svg(pit)}</div>'
            f"</div></div>")


def dataframe_html(df: Any) -> str:
    """The HTML of a TacoDataFrame: the backend's own HTML of the first rows, and a footer."""
    head = df.head(20)
    inner = head._repr_html_() if hasattr(head, "_repr_html_") else f"<pre>{html.escape(str(head))}</pre>"
    return (f"{inner}<p>[TacoDataFrame: {len(df)} rows, level={df.level}, "
            f"format={html.escape(str(df._format_type))}, backend={df.backend}]</p>")
