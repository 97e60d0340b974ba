"""Text layout for `-o table`: tables, detail lines and bullet lists that fit a given width.

rich's own Table shares out the width by ratios and folds any cell it must, which breaks node
names over lines (`gpu-` / `z2-r` / `3-n1`) and pads short columns on wide terminals. The
contract (docs/contract.md, "Tables") asks for something stricter, so the layout is done here and
rich only paints the finished lines:

* every line fits `width`; a column is as wide as its longest value and no wider;
* node names, statuses and numbers are never elided or broken (`Column(elide=False)`);
* when the row does not fit, the columns marked `elide=True` (pod and group names) give up width,
  widest first, and their values are elided in the middle (`llm-fi…ners`); the full name is in
  the JSON result;
* when it still does not fit, columns leave the row (those marked `fold=True` first, then the
  others, rightmost first) and each of their values becomes a detail line `header: value` under
  its row: the row wraps into two lines rather than run past the width;
* a column marked `whole=True` (owner names: `Job research/giant-pretrain`) is elided only as
  the last resort, when it alone is still wider than the width after every other column has
  left the row: the row wraps rather than cut a name a person wrote;
* detail lines under a row (where a group landed, its condition, why it did not schedule) are
  word-wrapped at the width with a hanging indent, never cut.

Other renderers add to a table through `Table.add_row(..., details=[...])` and to the page
through `Section`s; nothing here knows about plans.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Sequence

from rich.cells import cell_len
from rich.text import Text

from podgroup_plan.natural import natural_key

if TYPE_CHECKING:  # rich.console loads only to print in colour: plain text needs only Text
    from rich.console import Console

ELLIPSIS = "…"
# An empty cell.
DASH = "—"
# Spaces between two columns.
GAP = 2
# Names are elided down to COMFORTABLE_ELIDED cells before a foldable column leaves the row, and
# then down to MIN_ELIDED (or their full value when shorter).
COMFORTABLE_ELIDED = 24
MIN_ELIDED = 10
# Detail lines start this far in under their row; their wrapped continuations twice as far.
DETAIL_INDENT = 2

@lru_cache(maxsize=4096)
def _namespace_key(namespace: str) -> tuple:
    return natural_key(namespace)  # a plan has few namespaces and many names in each


def natural_ref_key(namespace: str, name: str) -> tuple:
    """Namespace first, then name, both natural."""
    return (_namespace_key(namespace), natural_key(name))


def as_text(value: str | Text | None, style: str = "") -> Text:
    if isinstance(value, Text):
        return value
    return Text("" if value is None else str(value), style=style)


def elide_middle(text: Text, width: int) -> Text:
    """`text` in at most `width` cells, its middle replaced by `…` when it must be shorter."""
    if text.cell_len <= width:
        return text
    if width <= 1:
        return Text(ELLIPSIS[:width], style=text.style)
    keep = width - 1
    head, tail = (keep + 1) // 2, keep // 2
    plain = text.plain
    out = text[:head]
    out.append(ELLIPSIS)
    if tail:
        out.append_text(text[len(plain) - tail:])
    return out


def wrap(text: Text, width: int, indent: int = 0, hanging: int = 0) -> list[Text]:
    """Word-wrap `text` into lines of at most `width` cells: the first indented by `indent`, the
    rest by `indent + hanging`. A word is broken only when it alone is wider than a line; each
    newline in `text` starts a new line (at the hanging indent)."""
    out: list[Text] = []
    start = 0
    for para in text.plain.split("\n"):
        out.extend(_wrap_line(text[start:start + len(para)], width, indent, hanging, first=not out))
        start += len(para) + 1
    return out


_WORD = re.compile(r"\S+")


def _wrap_line(text: Text, width: int, indent: int, hanging: int, first: bool) -> list[Text]:
    plain = text.plain
    lines: list[Text] = []
    pad = indent if first else indent + hanging
    line_start = line_end = None  # slice of `plain` on the current line
    for m in _WORD.finditer(plain):
        room = max(1, width - pad)
        if line_start is not None and cell_len(plain[line_start:m.end()]) <= room:
            line_end = m.end()
            continue
        if line_start is not None:
            lines.append(_indented(text[line_start:line_end], pad))
            pad = indent + hanging
            room = max(1, width - pad)
        start = m.start()
        # A word wider than a whole line is folded (only a long message token can be).
        while cell_len(plain[start:m.end()]) > room:
            lines.append(_indented(text[start:start + room], pad))
            start += room
            pad = indent + hanging
            room = max(1, width - pad)
        line_start, line_end = start, m.end()
    if line_start is not None:
        lines.append(_indented(text[line_start:line_end], pad))
    return lines or [Text()]


def _indented(line: Text, indent: int) -> Text:
    return Text(" " * indent) + line if indent else line


@dataclass
class Column:
    header: str
    justify: str = "left"  # "left" | "right"
    # Pod and group names may be elided in the middle; node names, statuses and numbers never.
    elide: bool = False
    # When the row cannot fit otherwise, the column leaves it and each non-empty value becomes a
    # detail line `header: value` under its row (the rightmost such column goes first).
    fold: bool = False
    # Names a person wrote (owners): kept whole while other columns can leave the row instead;
    # elided in the middle only when the column alone is wider than the width.
    whole: bool = False


@dataclass
class Row:
    cells: list[Text]
    details: list[Text] = field(default_factory=list)


class Table:
    """Columns of short values, each row optionally followed by wrapped detail lines."""

    def __init__(self, title: str, columns: Sequence[Column], caption: str | None = None):
        self.title = title
        self.columns = list(columns)
        self.caption = caption
        self.rows: list[Row] = []

    def add_row(self, *cells: str | Text | None, details: Iterable[str | Text | None] = ()) -> None:
        """A row; `details` are lines shown under it (None and "" are skipped)."""
        if len(cells) != len(self.columns):
            raise ValueError(f"{self.title}: {len(cells)} cells for {len(self.columns)} columns")
        self.rows.append(Row([as_text(c) for c in cells],
                             [as_text(d) for d in details if d is not None and str(d) != ""]))

    def layout(self, width: int) -> tuple[list[int], list[int]]:
        """(the columns shown, their widths). Names are elided to a comfortable width first;
        if the row still does not fit, foldable columns leave it, rightmost first; then names
        are elided further; then, so that no line is wider than `width`, any other column but the
        first leaves the row, rightmost first, its values shown as a detail line under their row
        (the row wraps into two lines: a node name is never cut). Only a first column that alone
        is wider than `width` and may not be elided stays wider."""
        shown = list(range(len(self.columns)))
        widths = self._widths(shown, width, COMFORTABLE_ELIDED)
        foldable = [i for i in shown if self.columns[i].fold]
        while self._total(widths) > width and foldable:
            shown.remove(foldable.pop())
            widths = self._widths(shown, width, COMFORTABLE_ELIDED)
        if self._total(widths) > width:
            widths = self._widths(shown, width, MIN_ELIDED)
        while self._total(widths) > width and len(shown) > 1:
            shown.pop()
            widths = self._widths(shown, width, COMFORTABLE_ELIDED)
            if self._total(widths) > width:
                widths = self._widths(shown, width, MIN_ELIDED)
        if self._total(widths) > width:
            widths = self._widths(shown, width, MIN_ELIDED, last_resort=True)
        return shown, widths

    def widths(self, width: int) -> list[int]:
        return self.layout(width)[1]

    @staticmethod
    def _total(widths: Sequence[int]) -> int:
        return sum(widths) + GAP * (len(widths) - 1)

    def _widths(self, shown: list[int], width: int, floor: int,
                last_resort: bool = False) -> list[int]:
        """Each shown column's width: its longest value (header included); then the elidable
        columns give up cells, widest first, until the row fits or each is at `floor`; the
        `whole` columns too when `last_resort`."""
        natural = [max([len(self.columns[i].header)] + [row.cells[i].cell_len for row in self.rows])
                   for i in shown]
        widths = list(natural)
        excess = self._total(widths) - width
        floors = [min(natural[k], max(floor, len(self.columns[i].header)))
                  if self._elidable(self.columns[i], last_resort) else natural[k]
                  for k, i in enumerate(shown)]
        while excess > 0:
            shrinkable = [k for k in range(len(widths)) if widths[k] > floors[k]]
            if not shrinkable:
                break
            top = max(widths[k] for k in shrinkable)
            widest = [k for k in shrinkable if widths[k] == top]
            second = max([widths[k] for k in shrinkable if widths[k] < top] +
                         [max(floors[k] for k in widest)])
            # Take from the widest columns down to the next width, no more than needed.
            step = max(1, min(top - second, -(-excess // len(widest))))
            for k in widest:
                if excess <= 0:
                    break
                cut = min(step, excess, widths[k] - floors[k])
                widths[k] -= cut
                excess -= cut
        return widths

    @staticmethod
    def _elidable(column: Column, last_resort: bool) -> bool:
        return column.elide or (column.whole and last_resort)

    def lines(self, width: int) -> list[Text]:
        out = [Text(self.title, style="bold")]
        shown, widths = self.layout(width)
        columns = [self.columns[i] for i in shown]
        folded = [i for i in range(len(self.columns)) if i not in shown]
        header = self._line([Text(c.header, style="bold") for c in columns], columns, widths)
        out.append(header)
        out.append(Text("─" * min(width, header.cell_len), style="dim"))
        for row in self.rows:
            out.append(self._line([row.cells[i] for i in shown], columns, widths))
            details = [Text(f"{self.columns[i].header.lower()}: ").append_text(row.cells[i])
                       for i in folded if row.cells[i].plain not in ("", DASH)] + row.details
            for detail in details:
                out.extend(wrap(detail, width, DETAIL_INDENT, DETAIL_INDENT))
        if self.caption:
            out.extend(wrap(Text(self.caption, style="dim"), width))
        return out

    @staticmethod
    def _line(cells: Sequence[Text], columns: Sequence[Column], widths: Sequence[int]) -> Text:
        line = Text()
        last = len(cells) - 1
        for i, (cell, col, w) in enumerate(zip(cells, columns, widths)):
            cell = elide_middle(cell, w) if col.elide or col.whole else cell
            pad = " " * max(0, w - cell.cell_len)
            if col.justify == "right":
                line.append(pad)
                line.append_text(cell)
            else:
                line.append_text(cell)
                if i != last:
                    line.append(pad)
            if i != last:
                line.append(" " * GAP)
        line.rstrip()
        return line


def bullets(title: str | Text | None, items: Iterable[str | Text], width: int) -> list[Text]:
    """A titled bullet list; wrapped lines hang under their bullet's text."""
    out = [as_text(title, "bold")] if title else []
    for item in items:
        lines = wrap(as_text(item), width - 4, 0, 0)
        for i, line in enumerate(lines):
            out.append(Text("  • " if i == 0 else "    ") + line)
    return out


def paragraph(text: str | Text, width: int, style: str = "") -> list[Text]:
    return wrap(as_text(text, style), width)


def render_lines(blocks: Sequence[Sequence[Text]], console: Console | None = None,
                 color: bool = False) -> str:
    """Blocks of lines, a blank line between blocks: plain text, or with colour codes when
    `color`; printed on `console` (and "" returned) when one is given."""
    lines: list[Text] = []
    for i, block in enumerate(b for b in blocks if b):
        if i:
            lines.append(Text())
        lines.extend(block)
    if console is not None:
        for line in lines:
            console.print(line, no_wrap=True, overflow="ignore", crop=False, soft_wrap=True)
        return ""
    if not color:
        return "".join(line.plain.rstrip() + "\n" for line in lines)
    import io

    from rich.console import Console

    buffer = io.StringIO()
    painter = Console(file=buffer, width=10_000, force_terminal=True, color_system="standard",
                      highlight=False, emoji=False, legacy_windows=False)
    for line in lines:
        painter.print(line, no_wrap=True, overflow="ignore", crop=False, soft_wrap=True)
    return buffer.getvalue()
