"""Time and peak memory of the animation export: the construction of an
8×8 and a 100×100 tour as GIF and MP4 (knightgui/animation/export.py), each in a fresh
process, against a process that made the same tour and exported nothing.

    .venv/bin/python bench/animation.py [--sizes 8,100] [--formats gif,mp4]

Prints, per board and format: frames and pixels, the seconds the export took (drawing and
encoding), the file's size, and the process's peak RSS above the one that only solved.
Targets: a 100×100 export in under 30 s, and at most 200 MB above the solve alone.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from _targets import check, verdict

TARGET_SECONDS, TARGET_MB = 30.0, 200.0

CHILD = r"""
import json, os, resource, sys, time
from knightgui_core.walks.solve import solve
n, fmt, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
tour = solve(n, n, closed=n % 2 == 0).tour
info = {}
if fmt != "none":
    from knightgui.animation.export import export_animation
    t = time.perf_counter()
    res = export_animation(tour, out)
    info = {"seconds": time.perf_counter() - t, "frames": res.plan.frames,
            "width": res.plan.width, "height": res.plan.height, "bytes": res.bytes,
            "moves_per_frame": res.plan.moves_per_frame}
info["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(info))
"""


def child(n: int, fmt: str, out: str) -> dict:
    r = subprocess.run([sys.executable, "-c", CHILD, str(n), fmt, out], capture_output=True,
                       text=True, timeout=600)
    if r.returncode:
        raise SystemExit(f"bench/animation.py: {n}×{n} {fmt} failed: {r.stderr.strip()[-300:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="8,100")
    ap.add_argument("--formats", default="gif,mp4")
    a = ap.parse_args()
    from knightgui.animation.export import missing_encoder
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in a.sizes.split(",")):
            base = child(n, "none", "")["peak_mb"]
            print(f"{n}×{n}: solving alone peaks at {base:.0f} MB")
            for fmt in a.formats.split(","):
                why = missing_encoder(fmt)
                if why:
                    print(f"  {fmt}: skipped ({why})")
                    continue
                d = child(n, fmt, os.path.join(tmp, f"a{n}.{fmt}"))
                extra = d["peak_mb"] - base
                ok = d["seconds"] <= TARGET_SECONDS and extra <= TARGET_MB
                print(f"  {fmt}: {d['frames']} frames of {d['width']}×{d['height']} "
                      f"({d['moves_per_frame']} a frame) in {d['seconds']:.2f} s, "
                      f"{d['bytes'] / 1e6:.2f} MB file, peak {d['peak_mb']:.0f} MB "
                      f"(+{extra:.0f} MB; targets {TARGET_SECONDS:.0f} s, +{TARGET_MB:.0f} MB: "
                      f"{check(f'{n}×{n} {fmt}', ok)})")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
