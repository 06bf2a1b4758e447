"""A griffe extension for the documentation site (mkdocs.yml names it by path).

The package's docstrings are written for ``help()`` and doctest, not for Markdown: a doctest
block read as Markdown loses its line breaks and its ``[...]`` outputs look like links (which
``mkdocs build --strict`` rejects), and Sphinx roles such as ``:class:`Puzzle``` show their
role name. This turns each doctest block into a fenced ``pycon`` block and each role into code,
on the site only; the source is not changed.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj|const):`~?\.?([^`]+)`")


def markdown_docstring(text: str) -> str:
    """``text`` with doctest blocks fenced and Sphinx roles as code spans."""
    out: list[str] = []
    block: list[str] = []
    for line in text.splitlines():
        if block and not line.strip():
            out += ["```pycon", *block, "```", ""]
            block = []
        elif block or line.lstrip().startswith(">>>"):
            block.append(line)
        else:
            out.append(_ROLE.sub(r"`\1`", line))
    if block:
        out += ["```pycon", *block, "```"]
    return "\n".join(out)


class DocstringsAsMarkdown(griffe.Extension):
    """Rewrites every docstring griffe reads with :func:`markdown_docstring`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)
