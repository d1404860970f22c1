#!/usr/bin/env python3
"""Where a boot's seconds go. A boot of thp-anon on the base kernel is
made by perfbot itself (perfbot calibrate --per-side 2, whose initramfs
is kept by a hard link as it appears), then booted again with the QEMU
command line perfbot stored, its two serial ports read through FIFOs and
every line stamped with the host's clock as it arrives. Prints, per boot,
the wall seconds of each phase:

  qemu+firmware  QEMU's start to the first byte the kernel's decompressor
                 prints (QEMU itself, SeaBIOS, loading -kernel and -initrd)
  decompress     to "Linux version": the bzImage unpacking itself
  kernel init    to init's "PB1 boot" line: the kernel's start up to /init
  init setup     to the first "PB1 begin": the guest's init before a workload
  workloads      to "PB1 done": the workload, perf stat included
  power-off      to QEMU's exit

Usage: tests/boot-cost.py PERFBOT CACHE_DIR [BOOTS [WORKLOAD]]  (default 3
boots of thp-anon; a workload with a disk cannot be booted again: its
images go with perfbot's boot). Run it with nothing else booting: the
phases are wall-clock times. It prints figures; it passes or fails nothing.
"""
import glob
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
    threads = [threading.Thread(target=reader, args=(fifos[k], stamps[k], t0), daemon=True)
               for k in range(2)]
    for t in threads:
        t.start()
    try:
        proc.wait(timeout=600)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    end = time.monotonic() - t0
    for t in threads:
        t.join(timeout=5)  # a FIFO QEMU never opened leaves its reader blocked
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


def stored_boot(perfbot, cache, workload, tmp):
    """perfbot's own boot of workload: its QEMU argv, the initramfs kept."""
    db, reports = os.path.join(tmp, "results.db"), os.path.join(tmp, "reports")
    keep = os.path.join(tmp, "initramfs.cpio")
    proc = subprocess.Popen([perfbot, "calibrate", "--workload", workload, "--per-side", "2",
                             "--cache-dir", cache, "--db", db, "--report-dir", reports],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while proc.poll() is None and not os.path.exists(keep):
        for d in glob.glob(os.path.join(reports, "logs", "*", "initramfs.cpio")):
            try:
                os.link(d, keep)
            except OSError:
                pass
        time.sleep(0.05)
    proc.wait()
    if not os.path.exists(keep) or not os.path.exists(db):
        return None
    row = sqlite3.connect(db).execute(
        "SELECT qemu_cmdline FROM runs WHERE outcome = 'ok' ORDER BY id LIMIT 1").fetchone()
    if not row:
        return None
    argv = qemu_argv(row[0])
    argv[argv.index("-initrd") + 1] = keep
    return argv


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    perfbot, cache = sys.argv[1], sys.argv[2]
    want = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    workload = sys.argv[4] if len(sys.argv) > 4 else "thp-anon"
    with tempfile.TemporaryDirectory() as tmp:
        argv = stored_boot(perfbot, cache, workload, tmp)
        if argv is None or not all(os.path.exists(f) for f in files_of(argv)):
            print("boot-cost: perfbot made no boot of %s to boot again" % workload)
            return
        print("%-4s %-10s" % ("boot", "workload") + "".join(" %13s" % p for p in PHASES) +
              " %7s" % "total")
        sums = [0.0] * len(PHASES)
        done = 0
        for i in range(want):
            stamps, end = boot_once(argv, tmp)
            ph = phases(stamps, end)
            if ph is None:
                print("%-4d %-10s  (a phase's line was missing: not counted)" % (i + 1, workload))
                continue
            print("%-4d %-10s" % (i + 1, workload) + "".join(" %13.2f" % p for p in ph) +
                  " %7.1f" % end)
            sums = [a + b for a, b in zip(sums, ph)]
            done += 1
        if done:
            total = sum(sums)
            print("%-15s" % "share" + "".join(" %12.0f%%" % (100 * x / total) for x in sums))


if __name__ == "__main__":
    main()
