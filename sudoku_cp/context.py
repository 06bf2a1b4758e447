"""What the command line keeps in click's context for the layers below it to read (the batch
modules check outputs against every file a command reads, and do not import the CLI).
Standard library only: the command line imports it before anything heavy."""

READING_KEY = "sudoku_cp.reading"
"""Where the reading options (``--element``, ``--elements``, ``--fetch``) keep what was given
(``ctx.meta``), merged across a command and its group."""
