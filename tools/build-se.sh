#!/usr/bin/env bash
# Build Sudoku Explainer (SudokuMonster/SukakuExplainer, LGPL-2.1) into a directory outside
# the repository, for the SE agreement benchmark (tools/perf/se_agreement.py) and for
# regenerating tests/data/se_ratings.csv.
#
# usage: tools/build-se.sh SOURCE_DIR CLASSES_DIR
#   SOURCE_DIR   an unpacked SukakuExplainer checkout (holds diuf/sudoku/...)
#   CLASSES_DIR  where the .class files go (e.g. /tmp/se/classes); never inside this repo
# Rate afterwards with the SE 1.2.1 technique set (Settings.init121):
#   java -cp CLASSES_DIR diuf.sudoku.test.serate \
#     --techs=1111111111010111011011011011000010100010111111 --format='%r/%p/%d' --input=FILE
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 SOURCE_DIR CLASSES_DIR" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
case "$out/" in
  "$repo"/*) echo "refusing to build into the repository ($out)" >&2; exit 2 ;;
esac
if [ ! -d "$src/diuf/sudoku" ]; then
  echo "$src does not hold diuf/sudoku (not a SukakuExplainer checkout)" >&2
  exit 2
fi
list=$(mktemp)
trap 'rm -f "$list"' EXIT
# The applet and GUI need AWT/Swing only; serate needs the solver, tools and io packages,
# but compiling everything is simplest and works headless.
find "$src/diuf" -name '*.java' > "$list"
javac -nowarn -encoding ISO-8859-1 -d "$out" @"$list"
# SE reads its resources (technique names, tooltips) from the class path.
(cd "$src" && find diuf -type f ! -name '*.java' -exec cp --parents {} "$out" \;)
echo "built SE into $out"
