"""The README's test command, timed alone and then run several times in a row beside a second copy of itself.

Run from the repository root: python3 scripts/suite_under_load.py [--alone 1] [--runs 10] [--out var/suite-load]

First the suite runs `--alone` times with nothing of ours beside it (the machine may still be busy with other
work: the load average is printed with every run), then `--runs` times in a row while a second copy of the
suite runs beside it, restarted whenever it ends. Each run's wall time, result and the load average are
printed; the full output of every run is kept in --out. Exit status 0 when every run passed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]  # the README's `python -m pytest -q`


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def run(name: str, out: Path) -> tuple[bool, float]:
    started = time.monotonic()
    with open(out / f"{name}.txt", "w") as log:
        rc = subprocess.run(COMMAND, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode
    took = time.monotonic() - started
    summary = (out / f"{name}.txt").read_text().strip().splitlines()[-1:] or [""]
    print(f"{name}: {'passed' if rc == 0 else f'FAILED (exit {rc})'} in {took:.0f} s, load {load()}: {summary[0]}",
          flush=True)
    return rc == 0, took


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--alone", type=int, default=1)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--out", type=Path, default=ROOT / "var" / "suite-load")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results = []
    for i in range(args.alone):
        results.append(run(f"alone-{i + 1}", args.out))
    stop = threading.Event()
    current: list[subprocess.Popen] = []

    def second_copy() -> None:  # the suite beside, started again whenever it ends, until the runs are done
        n = 0
        while not stop.is_set():
            n += 1
            with open(args.out / f"beside-{n}.txt", "w") as log:
                proc = subprocess.Popen(COMMAND, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
                current[:] = [proc]
                proc.wait()

    thread = threading.Thread(target=second_copy, daemon=True)
    thread.start()
    try:
        for i in range(args.runs):
            results.append(run(f"loaded-{i + 1}", args.out))
    finally:
        stop.set()
        for proc in current:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(60)
        thread.join(60)
    loaded = results[args.alone:]
    print(f"alone: {sum(ok for ok, _ in results[:args.alone])}/{args.alone} passed; "
          f"beside a second copy: {sum(ok for ok, _ in loaded)}/{len(loaded)} passed in a row"
          f"{'' if all(ok for ok, _ in loaded) else ' (not all)'}")
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
