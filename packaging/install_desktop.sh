#!/usr/bin/env bash
# Put knightgui in the desktop menu of the current user (Linux; freedesktop.org menus).
#
#   packaging/install_desktop.sh              # Exec: dist/knightgui/knightgui if built,
#                                             #       else .venv/bin/knightgui-app
#   packaging/install_desktop.sh /path/to/exe # Exec: that program
#   packaging/install_desktop.sh --uninstall
#
# Writes $XDG_DATA_HOME (default ~/.local/share)/applications/knightgui.desktop and the icon
# into icons/hicolor/<N>x<N>/apps/ and icons/hicolor/scalable/apps/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
SIZES="16 24 32 48 64 128 256 512"
APPS="$DATA/applications"
ICONS="$DATA/icons/hicolor"

refresh() {
    command -v update-desktop-database > /dev/null && update-desktop-database -q "$APPS" || true
    command -v gtk-update-icon-cache > /dev/null && gtk-update-icon-cache -q -t "$ICONS" 2> /dev/null || true
}

if [ "${1:-}" = "--uninstall" ]; then
    rm -f "$APPS/knightgui.desktop" "$ICONS/scalable/apps/knightgui.svg"
    for s in $SIZES; do rm -f "$ICONS/${s}x${s}/apps/knightgui.png"; done
    refresh
    echo "removed knightgui's desktop entry and icons from $DATA"
    exit 0
fi

if [ -n "${1:-}" ]; then
    EXEC=$1
elif [ -x "$ROOT/dist/knightgui/knightgui" ]; then
    EXEC="$ROOT/dist/knightgui/knightgui"
elif [ -x "$ROOT/.venv/bin/knightgui-app" ]; then
    EXEC="$ROOT/.venv/bin/knightgui-app"
else
    echo "install-desktop: nothing to launch yet; run 'make bundle' or 'make install' first" >&2
    exit 2
fi
[ -x "$EXEC" ] || { echo "install-desktop: $EXEC is not an executable" >&2; exit 2; }
case $EXEC in /*) ;; *) EXEC="$(cd "$(dirname "$EXEC")" && pwd)/$(basename "$EXEC")" ;; esac

for s in $SIZES; do
    install -D -m 644 "resources/icons/knightgui-$s.png" "$ICONS/${s}x${s}/apps/knightgui.png"
done
install -D -m 644 resources/knightgui.svg "$ICONS/scalable/apps/knightgui.svg"

# Exec takes a quoted argument; inside quotes the spec escapes " ` $ and \ with a backslash.
quoted=$(printf '%s' "$EXEC" | sed -e 's/[\\"`$]/\\&/g')
quoted=$(printf '%s' "$quoted" | sed -e 's/\\/\\\\/g')  # then the string-level escape of \
mkdir -p "$APPS"
tmp=$(mktemp "$APPS/.knightgui-XXXXXX.desktop")
KG_EXEC="\"$quoted\"" KG_TRYEXEC="$EXEC" awk '  # ENVIRON: awk -v would eat backslashes
    /^Exec=/    { print "Exec=" ENVIRON["KG_EXEC"]; next }
    /^TryExec=/ { print "TryExec=" ENVIRON["KG_TRYEXEC"]; next }
    { print }' resources/knightgui.desktop > "$tmp"
chmod 644 "$tmp"
if command -v desktop-file-validate > /dev/null; then
    desktop-file-validate "$tmp" || { rm -f "$tmp"; echo "install-desktop: entry invalid" >&2; exit 1; }
fi
mv "$tmp" "$APPS/knightgui.desktop"
refresh
echo "installed $APPS/knightgui.desktop (Exec: $EXEC) and icons under $ICONS"
