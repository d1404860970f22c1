#!/usr/bin/env python3
"""Where a boot's seconds go: boots stored in a results.db are booted again
with their own QEMU command line, their two serial ports read through FIFOs
and every line stamped with the host's clock as it arrives. Prints, per
boot, the wall seconds of each phase:

  qemu+firmware  QEMU's start to the first byte the kernel's decompressor
                 prints (QEMU itself, SeaBIOS, loading -kernel and -initrd)
  decompress     to "Linux version": the bzImage unpacking itself
  kernel init    to init's "PB1 boot" line: the kernel's start up to /init
  init setup     to the first "PB1 begin": the guest's init before a workload
  workloads      to "PB1 done": every workload, perf stat included
  power-off      to QEMU's exit

Usage: tests/boot-cost.py DB [RUNS]   (RUNS: how many stored boots, the
first of each comparison first; default 3). Boots whose disk images or
initramfs are gone are left out. Run it with nothing else booting: the
phases are wall-clock times. It prints figures; it passes or fails nothing.
"""
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

PHASES = ["qemu+firmware", "decompress", "kernel init", "init setup", "workloads", "power-off"]


def qemu_argv(cmdline):
    """runs.qemu_cmdline is the argv joined by spaces; -append's value is
    the one argument with spaces in it: everything up to the next option."""
    words = cmdline.split(" ")
    argv, i = [], 0
    while i < len(words):
        w = words[i]
        argv.append(w)
        i += 1
        if w == "-append":
            j = i
            while j < len(words) and not words[j].startswith("-"):
                j += 1
            argv.append(" ".join(words[i:j]))
            i = j
    return argv


def files_of(argv):
    out = []
    for a in argv:
        for part in a.split(","):
            if part.startswith("file="):
                out.append(part[5:])
    for opt in ("-kernel", "-initrd"):
        if opt in argv:
            out.append(argv[argv.index(opt) + 1])
    return out


def reader(path, stamps, t0):
    with open(path, "rb") as f:
        for line in f:
            stamps.append((time.monotonic() - t0, line.decode("utf-8", "replace").rstrip()))


def boot_once(argv, tmp):
    fifos = [os.path.join(tmp, "console"), os.path.join(tmp, "results")]
    for p in fifos:
        if os.path.exists(p):
            os.unlink(p)
        os.mkfifo(p)
    serial = [i for i, a in enumerate(argv) if a == "-serial"]
    argv = list(argv)
    for k, i in enumerate(serial[:2]):
        argv[i + 1] = "file:" + fifos[k]
    stamps = [[], []]
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    threads = [threading.Thread(target=reader, args=(fifos[k], stamps[k], t0)) for k in range(2)]
    for t in threads:
        t.start()
    proc.wait(timeout=600)
    end = time.monotonic() - t0
    for t in threads:
        t.join()
    return stamps, end


def first(stamps, pred):
    for t, line in stamps:
        if pred(line):
            return t
    return None


def phases(stamps, end):
    console, results = stamps
    marks = [
        first(console, lambda l: l.strip() != ""),
        first(console, lambda l: "Linux version" in l),
        first(results, lambda l: l.startswith("PB1 boot")),
        first(results, lambda l: l.startswith("PB1 begin")),
        first(results, lambda l: l.startswith("PB1 done")),
        end,
    ]
    if any(m is None for m in marks):
        return None
    prev, out = 0.0, []
    for m in marks:
        out.append(m - prev)
        prev = m
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    db = sqlite3.connect(sys.argv[1])
    want = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rows = db.execute(
        "SELECT r.id, c.workloads, r.qemu_cmdline, r.wall_seconds FROM runs r "
        "JOIN comparisons c ON c.id = r.comparison_id WHERE r.outcome = 'ok' "
        "ORDER BY r.boot_index <> 1, r.id").fetchall()
    print("%-6s %-34s %7s" % ("run", "workloads", "stored") +
          "".join(" %13s" % p for p in PHASES) + " %7s" % "total")
    done = 0
    with tempfile.TemporaryDirectory() as tmp:
        for rid, workloads, cmdline, stored in rows:
            argv = qemu_argv(cmdline)
            if not all(os.path.exists(f) for f in files_of(argv)):
                continue
            stamps, end = boot_once(argv, tmp)
            ph = phases(stamps, end)
            if ph is None:
                print("%-6d %-34s %7.1f  (a phase's line was missing: not counted)" %
                      (rid, workloads[:34], stored))
                continue
            print("%-6d %-34s %7.1f" % (rid, workloads[:34], stored) +
                  "".join(" %13.2f" % p for p in ph) + " %7.1f" % end)
            done += 1
            if done >= want:
                break
    if not done:
        print("boot-cost: no stored boot whose files are all still there")


if __name__ == "__main__":
    main()
