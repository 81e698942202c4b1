#!/usr/bin/env bash
# Build the one-directory bundle dist/knightgui/ with PyInstaller (packaging/knightgui.spec).
#
#   packaging/build.sh            # uses .venv/bin/python (make bundle installs PyInstaller there)
#   PYTHON=python3 packaging/build.sh
#
# Works the same on Linux and macOS; on Windows run the pyinstaller line from a shell with
# the venv active (see packaging/README.md). Prints the bundle's size at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=$(command -v "$PY")
if ! "$PY" -c 'import PyInstaller' 2>/dev/null; then
    echo "PyInstaller is not installed for $PY; run: $PY -m pip install -e '.[bundle]'" >&2
    exit 2
fi

# The icon PNGs are committed; re-render only if an SVG is newer than them.
for svg in resources/knightgui.svg resources/knightgui-small.svg; do
    if [ "$svg" -nt resources/icons/knightgui-512.png ] || [ "$svg" -nt resources/icons/knightgui-16.png ]; then
        "$PY" packaging/render_icons.py
        break
    fi
done

start=$(date +%s)
# The kernels, compiled ahead of time (numba.pycc): again whenever engine code changed, since
# the call sites fix each kernel's argument types.
AOT_DIR=${KNIGHTGUI_AOT_DIR:-build/aot}
export KNIGHTGUI_AOT_DIR=$AOT_DIR
nice -n 5 "$PY" packaging/build_aot.py --out "$AOT_DIR" --if-stale
nice -n 5 "$PY" -m PyInstaller --noconfirm --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/knightgui.spec
echo "built dist/knightgui in $(( $(date +%s) - start )) s; size $(du -sh dist/knightgui | cut -f1)"
