-- perfbot results database, schema version 1 (PRAGMA user_version).
-- Every comparison is written in one transaction with its kernels, runs,
-- samples and results: a perfbot that dies leaves nothing half-written.

CREATE TABLE patches (
    id          INTEGER PRIMARY KEY,
    queue       TEXT NOT NULL,          -- queue directory
    number      INTEGER NOT NULL,       -- 765 of [PATCH 5.13 765/800]
    total       INTEGER NOT NULL,
    series      TEXT NOT NULL,          -- 5.13
    file        TEXT NOT NULL,
    sha256      TEXT NOT NULL,          -- of the patch file
    subject     TEXT NOT NULL,
    author      TEXT NOT NULL,
    upstream    TEXT NOT NULL,          -- upstream commit, '' if not named
    fixes       TEXT NOT NULL,          -- Fixes: lines, one per line
    cc_stable   INTEGER NOT NULL,       -- 1: explicit Cc: stable tag
    is_mm       INTEGER NOT NULL,
    mm_reason   TEXT NOT NULL,
    UNIQUE (queue, number, sha256)
);

CREATE TABLE kernels (
    id            INTEGER PRIMARY KEY,
    key           TEXT NOT NULL UNIQUE, -- hash of every build input
    version       TEXT NOT NULL,        -- 6.1.192
    tree_sha256   TEXT NOT NULL,        -- the source tarball
    config_sha256 TEXT NOT NULL,        -- the merged .config
    label         TEXT NOT NULL,        -- base, base+patch, base-patch, base+port
    change_file   TEXT,                 -- the patch or port applied, NULL for base
    change_sha256 TEXT,
    reverse       INTEGER NOT NULL,
    build_status  TEXT NOT NULL,        -- built | build-failed
    build_seconds REAL,
    build_log     TEXT,
    failure       TEXT
);

CREATE TABLE comparisons (
    id              INTEGER PRIMARY KEY,
    patch_id        INTEGER NOT NULL REFERENCES patches(id),
    pair_method     TEXT NOT NULL,      -- forward | reverse | port
    pair_detail     TEXT NOT NULL,
    kernel_without  INTEGER NOT NULL REFERENCES kernels(id),
    kernel_with     INTEGER NOT NULL REFERENCES kernels(id),
    accel           TEXT,               -- kvm | tcg | tcg-icount; NULL if nothing booted
    accel_reason    TEXT,
    workloads       TEXT NOT NULL,      -- space-separated
    workload_choice TEXT NOT NULL,      -- why these workloads
    boots_per_kernel INTEGER NOT NULL,
    iterations      INTEGER NOT NULL,
    status          TEXT NOT NULL,      -- measured | build-failed | boot-failed
    started_at      TEXT NOT NULL,
    finished_at     TEXT NOT NULL,
    wall_seconds    REAL NOT NULL,
    perfbot_version TEXT NOT NULL
);

CREATE TABLE runs (
    id             INTEGER PRIMARY KEY,
    comparison_id  INTEGER NOT NULL REFERENCES comparisons(id),
    kernel_id      INTEGER NOT NULL REFERENCES kernels(id),
    side           TEXT NOT NULL,       -- without | with
    boot_index     INTEGER NOT NULL,    -- order in which the boots ran
    accel          TEXT NOT NULL,
    accel_reason   TEXT NOT NULL,
    qemu_version   TEXT NOT NULL,
    qemu_cmdline   TEXT NOT NULL,
    outcome        TEXT NOT NULL,       -- ok | invalid | boot-panic | timeout | qemu-error | incomplete
    detail         TEXT NOT NULL,
    wall_seconds   REAL NOT NULL,
    console_log    TEXT NOT NULL,
    results_log    TEXT NOT NULL,
    UNIQUE (comparison_id, boot_index)
);

CREATE TABLE samples (
    run_id     INTEGER NOT NULL REFERENCES runs(id),
    workload   TEXT NOT NULL,
    metric     TEXT NOT NULL,
    iteration  INTEGER NOT NULL,
    value      REAL NOT NULL,
    PRIMARY KEY (run_id, workload, metric, iteration)
);

CREATE TABLE results (
    comparison_id  INTEGER NOT NULL REFERENCES comparisons(id),
    workload       TEXT NOT NULL,
    metric         TEXT NOT NULL,
    unit           TEXT NOT NULL,
    kind           TEXT NOT NULL,       -- time | behaviour
    better         TEXT NOT NULL,       -- higher | lower
    n_without      INTEGER NOT NULL,
    n_with         INTEGER NOT NULL,
    median_without REAL,
    median_with    REAL,
    change_pct     REAL,
    verdict        TEXT NOT NULL,
    PRIMARY KEY (comparison_id, workload, metric)
);

CREATE INDEX runs_by_comparison ON runs (comparison_id);
CREATE INDEX comparisons_by_patch ON comparisons (patch_id);

PRAGMA user_version = 1;
