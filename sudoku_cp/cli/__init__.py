"""`sudoku-cp`: the command line, a thin layer over the library.

:mod:`.app` holds the group (its exit statuses, its one-line errors) and what every command
shares; each other module adds its commands to it when imported, which the group does when a
command is first looked up (:data:`.app.COMMANDS`), so that a command loads no other's module.
"""

try:
    from .app import main
except KeyboardInterrupt:
    # Ctrl-C while the command line loads (click, rich): one line, not a traceback. (The
    # console script imports this module before it calls anything that could catch it.)
    import sys

    sys.stderr.write("sudoku-cp: interrupted while starting; nothing was done\n")
    raise SystemExit(130) from None

__all__ = ["main"]
