#!/usr/bin/env bash
# Headless checks of the built bundle (make bundle-test runs this after make bundle):
#   1. --version prints the package version;
#   2. solve --rows 100 --cols 100 --closed --json gives a valid closed tour (checked by the
#      bundle's own `check` and, independently, by plain python3 when present);
#   3. the kernels are the ahead-of-time ones (no numba or LLVM in the bundle) and give the
#      published figures: 14,258 a8->c7 tours, the 8x8 move-order totals;
#   4. the bundle is a Dask client: with a real `dask scheduler` and `dask worker` (started
#      from the project's venv, the same knightgui version, on 127.0.0.1) it counts 6x6
#      through --scheduler to the published 1,984 tours;
#   5. the window opens offscreen, paints, and exits with status 0 (KNIGHTGUI_SMOKE_EXIT_MS);
#   6. prints the bundle size and start-to-first-frame times (median of 5).
#
#   packaging/bundle_test.sh [path/to/knightgui]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-dist/knightgui/knightgui}
[ -x "$BIN" ] || { echo "bundle-test: no bundle at $BIN (run: make bundle)" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

tmp=$(mktemp -d)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill -TERM -- "-$p" 2> /dev/null || kill -TERM "$p" 2> /dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT
export QT_QPA_PLATFORM=offscreen
export XDG_CONFIG_HOME="$tmp/config"  # the window saves its settings on close: not into the user's
cd "$tmp"  # nothing may depend on the source tree being the working directory
fail() { echo "bundle-test: FAIL: $*" >&2; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

want=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$OLDPWD/knightgui/__init__.py")
got=$("$BIN" --version) || fail "--version exited $?"
[ "$got" = "knightgui $want" ] || fail "--version printed '$got', expected 'knightgui $want'"
echo "ok   --version: $got"

t0=$(now)
"$BIN" solve --rows 100 --cols 100 --closed --json --out "$tmp/tour.json" > "$tmp/solve.out" \
    || fail "solve exited $?: $(tail -3 "$tmp/solve.out")"
echo "ok   solve 100x100 closed: $(secs "$t0" "$(now)") s"
tail -n 1 "$tmp/solve.out" | grep -q '"valid": *true' || fail "solve --json did not report valid: true"
"$BIN" check "$tmp/tour.json" > /dev/null || fail "the bundle's check rejected its own tour"
if command -v python3 > /dev/null; then
    python3 - "$tmp/solve.out" <<'PY' || fail "the tour in solve's JSON is not a closed knight's tour"
import json, sys
d = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
p = [tuple(s) for s in d["path"]]
assert d["rows"] == d["cols"] == 100 and d["closed"] is True
assert len(p) == 10000 and len(set(p)) == 10000
assert all(0 <= c < 100 and 0 <= r < 100 for c, r in p)
ok = lambda a, b: sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]
assert all(ok(p[i], p[(i + 1) % len(p)]) for i in range(len(p)))
PY
fi
echo "ok   tour valid (bundle's check$(command -v python3 > /dev/null && echo ', independent python3 check'))"
"$BIN" solve --rows 8 --cols 8 --animate "$tmp/tour.gif" > /dev/null \
    || fail "solve --animate (GIF) exited $?"
[ "$(head -c 6 "$tmp/tour.gif")" = "GIF89a" ] || fail "solve --animate wrote no GIF"
echo "ok   animated GIF exported ($(wc -c < "$tmp/tour.gif") bytes)"
bundle=$(dirname "$BIN")
[ -z "$(find "$bundle" -path '*numba*' -o -path '*llvmlite*' | head -n 1)" ] \
    || fail "the bundle holds numba or llvmlite: $(find "$bundle" -path '*llvm*' | head -n 3)"
[ -n "$(find "$bundle" -name 'knightgui_aot.*' | head -n 1)" ] || fail "no knightgui_aot in the bundle"
echo "ok   kernels compiled ahead of time: knightgui_aot, no numba or llvmlite in the bundle"
t0=$(now)
"$BIN" enumerate --start a8 --end c7 --json > "$tmp/enum.out" || fail "enumerate exited $?"
tail -n 1 "$tmp/enum.out" | grep -q '"solutions": *14258,' \
    || fail "enumerate a8->c7 did not count 14,258: $(tail -n 1 "$tmp/enum.out")"
echo "ok   enumerate a8->c7: 14,258 solutions ($(secs "$t0" "$(now)") s)"
t0=$(now)
"$BIN" study move-orders --json > "$tmp/orders.out" || fail "study move-orders exited $?"
for want in '"failed_walks": *78832' '"orders_with_failure": *32944' '"closed_walks": *294584'; do
    tail -n 1 "$tmp/orders.out" | grep -q "$want" || fail "move orders: no $want in $(tail -n 1 "$tmp/orders.out" | cut -c1-300)"
done
echo "ok   move orders 8x8: 78,832 failed walks, 32,944 orders with a failure ($(secs "$t0" "$(now)") s)"

DASK="$OLDPWD/.venv/bin/dask"
if [ -x "$DASK" ] && command -v python3 > /dev/null; then
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    setsid "$DASK" scheduler --host 127.0.0.1 --port "$port" --no-dashboard > "$tmp/scheduler.log" 2>&1 &
    PIDS+=($!)
    setsid "$DASK" worker "tcp://127.0.0.1:$port" --nthreads 2 --no-dashboard > "$tmp/worker.log" 2>&1 &
    PIDS+=($!)
    python3 - "$port" <<'PY' || { cat "$tmp/scheduler.log" >&2; fail "the dask scheduler did not open its port within 60 s"; }
import socket, sys, time
end = time.monotonic() + 60
while True:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
        break
    except OSError:
        if time.monotonic() > end:
            sys.exit(1)
        time.sleep(0.2)
PY
    t0=$(now)
    timeout 300 "$BIN" study count --size 6 --scheduler "tcp://127.0.0.1:$port" --json > "$tmp/count.out" 2> "$tmp/count.err" \
        || { tail -5 "$tmp/worker.log" >&2; fail "study count through the cluster exited $?: $(tail -n 2 "$tmp/count.err")"; }
    tail -n 1 "$tmp/count.out" | grep -q '"tours": *1984,' \
        || fail "count 6x6 through the cluster: $(tail -n 1 "$tmp/count.out" | cut -c1-200)"
    echo "ok   study count 6x6 through a dask scheduler + worker: 1,984 tours ($(secs "$t0" "$(now)") s)"
else
    echo "skip no $DASK (make install-test) or no python3: cluster check not run"
fi

FRAME=""
smoke() {  # one offscreen launch; sets FRAME to the first-frame seconds
    local rc=0
    KNIGHTGUI_SMOKE_EXIT_MS=$1 timeout 180 "$BIN" > "$tmp/gui.out" 2> "$tmp/gui.err" || rc=$?
    [ $rc -eq 0 ] || { cat "$tmp/gui.err" >&2; fail "window run exited $rc"; }
    if grep -E -q 'Traceback|QThread: Destroyed|Segmentation|Fatal Python' "$tmp/gui.err"; then
        cat "$tmp/gui.err" >&2; fail "window run printed an error"
    fi
    FRAME=$(sed -n 's/.*first frame \([0-9.]*\) s after .*/\1/p' "$tmp/gui.err" | head -n 1)
    [ -n "$FRAME" ] || { cat "$tmp/gui.err" >&2; fail "window never reported a first frame"; }
}
smoke 1500
echo "ok   window opened offscreen, painted after $FRAME s, stayed 1.5 s and exited 0"
times=()
for i in 1 2 3 4 5; do smoke 0; times+=("$FRAME"); done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
echo "info start to first frame: median $median s of 5 (${times[*]}) [target <= 1.5 s]"
echo "info last run: $(grep -o 'first frame.*' "$tmp/gui.err" | head -n 1)"
echo "info bundle size: $(du -sh "$(dirname "$BIN")" | cut -f1) [target <= 250 MB]"
echo "bundle-test: all checks passed"
