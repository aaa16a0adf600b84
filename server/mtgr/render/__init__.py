"""Pictures of the game: a board model built from the walk's state at a line, and the
renderers that draw it (text for terminals, SVG for slides, HTML for pages and editors).

`board.py` turns a `GameState`, the line and its diagnostics into a `Board` of plain values;
every renderer reads only the `Board`, so a new part of the state is added once there and
then drawn by each renderer. Nothing here re-implements a rule.
"""
