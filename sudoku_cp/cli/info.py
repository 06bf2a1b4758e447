"""``sudoku-cp models`` and ``backends``: what is shipped and what is available."""

from __future__ import annotations

import json
from typing import Any

import click

from .app import (
    main,
)


# --- models and backends -----------------------------------------------------------------------
@main.command()
def models() -> None:
    """List the shipped models (rule sets) with a one-line description each."""
    from ..model import MODELS_DIR, load_model, model_names

    width = max(len(n) for n in model_names())
    for name in model_names():
        model = load_model(name)
        sizes = f" [sizes: {', '.join(map(str, model.sizes))}]" if model.sizes else ""
        click.echo(f"{name:<{width}}  {model.description}{sizes}")
    click.echo(f"\n(from {MODELS_DIR}; --model also takes a path to your own TOML file)")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def backends(as_json: bool) -> None:
    """List every backend: whether it is available, its library version, its options, the rules
    it compiles beyond groups (killercage, antiknight …) and its counters with their kinds
    (size, dead-end, other)."""
    from ..backends import backend_class, backend_names

    rows: list[dict[str, Any]] = []
    for name in backend_names():
        cls = backend_class(name)
        reason = cls.unavailable_reason()
        rows.append(
            {
                "name": name,
                "available": reason is None,
                "why_not": reason,
                "library": cls.requires[1] if cls.requires else "(pure Python)",
                "version": cls.version(),
                "summary": cls.summary,
                "options": [
                    {
                        "name": o.name,
                        "type": o.type.__name__,
                        "default": o.default,
                        "help": o.help,
                        "choices": list(o.choices) if o.choices else None,
                    }
                    for o in cls.options
                ],
                "counters": {name: c.description for name, c in cls.counters.items()},
                "counter_kinds": {name: c.kind for name, c in cls.counters.items()},
                "rules": sorted(cls.rules),
                "notes": cls.notes(),
            }
        )
    if as_json:
        click.echo(json.dumps(rows, indent=2, default=str))
        return
    for row in rows:
        state = "available" if row["available"] else "NOT AVAILABLE"
        version = f" {row['version']}" if row["version"] else ""
        click.echo(f"{row['name']}: {row['summary']}")
        click.echo(f"  {state} · {row['library']}{version}")
        if row["why_not"]:
            click.echo(f"  {row['why_not']}")
        for opt in row["options"]:
            choices = f" (one of: {', '.join(map(str, opt['choices']))})" if opt["choices"] else ""
            click.echo(f"  -O {opt['name']}={opt['default']}  {opt['help']}{choices}")
        for note in row["notes"]:
            click.echo(f"  {note}")
        click.echo("  rules beyond groups: " + (", ".join(row["rules"]) or "none (groups only)"))
        if row["counters"]:
            kinds = row["counter_kinds"]
            click.echo(
                "  counters: " + ", ".join(f"{name} ({kinds[name]})" for name in row["counters"])
            )
