-- perfbot results database, schema version 9 (PRAGMA user_version).
-- db.c upgrades a database of versions 1 to 8 in place.
-- Every comparison is written in one transaction with its kernels, runs,
-- samples and results: a perfbot that dies leaves nothing half-written.

CREATE TABLE patches (
    id          INTEGER PRIMARY KEY,
    queue       TEXT NOT NULL,          -- queue directory, or mbox file
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
    -- schema 7: the patch's mail, '' where it had none (a quilt patch)
    message_id  TEXT NOT NULL DEFAULT '',
    in_reply_to TEXT NOT NULL DEFAULT '',
    mail_to     TEXT NOT NULL DEFAULT '',
    mail_cc     TEXT NOT NULL DEFAULT '',
    mail_date   TEXT NOT NULL DEFAULT '',
    UNIQUE (queue, number, sha256)
);

-- schema 7: the -rc as a whole (perfbot run --series): which patches a
-- series comparison applied, how, and what the queue called itself
CREATE TABLE series (
    id          INTEGER PRIMARY KEY,
    queue       TEXT NOT NULL,          -- queue directory, or mbox file
    name        TEXT NOT NULL,          -- 5.13.2-rc1, else the queue's name: reports/series-<name>-<hash>.html
    description TEXT NOT NULL,          -- the cover letter's subject, '' if none
    cover_message_id TEXT NOT NULL,     -- its Message-ID, '' if none
    mode        TEXT NOT NULL,          -- forward (the -rc on its base) | reverse (the queue in the base)
    mm_only     INTEGER NOT NULL,       -- 1: only the mm patches were applied
    patches     TEXT NOT NULL,          -- the numbers applied, in the order applied
    sha256      TEXT NOT NULL,          -- of the series' steps (the kernel's change)
    UNIQUE (queue, sha256)
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
    kind            TEXT NOT NULL DEFAULT 'patch', -- patch | calibration (A/A: one kernel, both sides) | series | bisect (a step)
    patch_id        INTEGER REFERENCES patches(id), -- NULL for a calibration or a series
    pair_method     TEXT NOT NULL,      -- forward | reverse | port | same (calibration)
    pair_detail     TEXT NOT NULL,
    kernel_without  INTEGER NOT NULL REFERENCES kernels(id),
    kernel_with     INTEGER NOT NULL REFERENCES kernels(id),
    accel           TEXT,               -- kvm | tcg | tcg-icount; NULL if nothing booted
    accel_reason    TEXT,
    workloads       TEXT NOT NULL,      -- space-separated
    workload_choice TEXT NOT NULL,      -- why these workloads
    boots_per_kernel INTEGER NOT NULL,  -- as run, extra boots of an inconclusive one included
    iterations      INTEGER NOT NULL,   -- measured iterations per boot
    status          TEXT NOT NULL,      -- measured | build-failed | boot-failed
    started_at      TEXT NOT NULL,
    finished_at     TEXT NOT NULL,
    wall_seconds    REAL NOT NULL,
    perfbot_version TEXT NOT NULL,
    warmup          INTEGER NOT NULL DEFAULT 0, -- iterations run first and left out
    seed            INTEGER,            -- of the boot order (before schema 6 also of the bootstrap)
    gate_pct        REAL,               -- the magnitude gate in force
    alpha           REAL,
    noise_factor    REAL,               -- before schema 6: the gate over noise's factor
    beta            REAL,               -- schema 6 on: of "no change", spent over the looks
    noise_calibration INTEGER REFERENCES comparisons(id), -- whose noise floor was used
    verdict         TEXT,               -- worst timing verdict
    behaviour       TEXT,               -- behaviour change | same
    fa_splits       INTEGER,            -- calibration: A/A splits of its boots tried
    fa_flagged      INTEGER,            -- calibration: splits with any metric flagged
    fa_metric_tests INTEGER,            -- calibration: metric tests over all splits
    fa_metric_flags INTEGER,            -- calibration: of those, flagged
    series_id       INTEGER REFERENCES series(id), -- schema 7: a series comparison's
    guests_at_once  INTEGER,            -- schema 8: guests booted at once, at most (NULL before: 1)
    uid             TEXT,               -- schema 9: the comparison's identity in any database (NULL before)
    host            TEXT                -- schema 9: the machine that ran it (its host name; NULL before)
);

-- schema 7: perfbot bisect over a series comparison's prefixes
CREATE TABLE bisects (
    id            INTEGER PRIMARY KEY,
    series_comparison INTEGER NOT NULL REFERENCES comparisons(id), -- what it bisects
    workload      TEXT NOT NULL,        -- the metric judged, alone; '' for a build or boot failure
    metric        TEXT NOT NULL,
    change        TEXT NOT NULL,        -- what the series showed: regression | improvement | behaviour change | build-failed | boot-failed
    npatches      INTEGER NOT NULL,     -- prefixes 0 (without) to npatches (with)
    culprit       INTEGER,              -- its series position (1..npatches), NULL if none
    culprit_number INTEGER,             -- its patch number
    status        TEXT NOT NULL,        -- confirmed | not confirmed | failed
    detail        TEXT NOT NULL,
    steps         INTEGER NOT NULL,     -- comparisons run, confirmations included
    started_at    TEXT NOT NULL,
    finished_at   TEXT NOT NULL,
    wall_seconds  REAL NOT NULL
);

CREATE TABLE bisect_steps (
    bisect_id     INTEGER NOT NULL REFERENCES bisects(id),
    step          INTEGER NOT NULL,     -- 1, 2, ... in the order run
    role          TEXT NOT NULL,        -- search | confirm | absent before
    prefix_a      INTEGER NOT NULL,     -- the kernel of the series' first prefix_a patches
    prefix_b      INTEGER NOT NULL,     -- against that of its first prefix_b
    comparison_id INTEGER NOT NULL REFERENCES comparisons(id), -- kind 'bisect'
    verdict       TEXT NOT NULL,        -- the metric's (or the kernels' status)
    bad           INTEGER NOT NULL,     -- 1: prefix_b shows the change
    PRIMARY KEY (bisect_id, step)
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
    host_cpu       TEXT,                -- schema 9: the host's CPU model (NULL before)
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
    warmup     INTEGER NOT NULL DEFAULT 0, -- 1: a warm-up iteration, left out of the statistics
    PRIMARY KEY (run_id, workload, metric, iteration)
);

CREATE TABLE results (
    comparison_id  INTEGER NOT NULL REFERENCES comparisons(id),
    workload       TEXT NOT NULL,
    metric         TEXT NOT NULL,
    unit           TEXT NOT NULL,
    kind           TEXT NOT NULL,       -- time | behaviour | diagnostic
    better         TEXT NOT NULL,       -- higher | lower
    n_without      INTEGER NOT NULL,
    n_with         INTEGER NOT NULL,
    median_without REAL,
    median_with    REAL,
    change_pct     REAL,
    verdict        TEXT NOT NULL,
    boots_without  INTEGER,
    boots_with     INTEGER,
    ci_lo_pct      REAL,                -- 95% CI of change_pct (t interval; before schema 6, bootstrap)
    ci_hi_pct      REAL,
    hl_shift       REAL,                -- Hodges-Lehmann shift of boot medians, in unit
    p_mw           REAL,                -- Mann-Whitney over boot medians
    p_ks           REAL,                -- Kolmogorov-Smirnov over boot medians
    p              REAL,                -- the t test at the deciding look (before 6: the smaller rank test)
    p_adj          REAL,                -- Holm over the comparison's tested metrics
    noise_pct      REAL,                -- between-boot CV (the t test's prior when from a calibration)
    noise_from     TEXT,                -- calibration | this run
    deterministic  INTEGER,
    regime         TEXT,                -- what decided the verdict
    threshold_pct  REAL,                -- schema 6: "no change" means none larger than this
    look           INTEGER,             -- schema 6: boots a side at the deciding look
    PRIMARY KEY (comparison_id, workload, metric)
);

-- The noise of each metric from a calibration (an A/A comparison).
CREATE TABLE noise (
    calibration_id INTEGER NOT NULL REFERENCES comparisons(id),
    workload       TEXT NOT NULL,
    metric         TEXT NOT NULL,
    boots          INTEGER NOT NULL,
    between_cv_pct REAL,                -- sd of boot medians / mean
    within_cv_pct  REAL,                -- pooled sd within boots / mean
    deterministic  INTEGER NOT NULL,    -- every boot gave the same values
    rounds         INTEGER,             -- schema 6: complete A/A rounds
    paired_cv_pct  REAL,                -- schema 6: sd of a round's B - A / sqrt 2 (what pairing leaves)
    workload_sha256 TEXT NOT NULL DEFAULT '', -- schema 8: the workload's ini, binary and guest init ('' before)
    PRIMARY KEY (calibration_id, workload, metric)
);

-- One perfbot nightly: what it ran, skipped and found.
CREATE TABLE nightly (
    id                INTEGER PRIMARY KEY,
    queue             TEXT NOT NULL,
    started_at        TEXT NOT NULL,
    finished_at       TEXT NOT NULL,
    wall_seconds      REAL NOT NULL,
    perfbot_version   TEXT NOT NULL,
    tree_sha256       TEXT NOT NULL,    -- the base it measured against
    config_sha256     TEXT NOT NULL,
    patches_run       INTEGER NOT NULL,
    patches_skipped   INTEGER NOT NULL, -- not mm, or already measured for this base, config, version
    regressions       INTEGER NOT NULL, -- patches whose verdict is regression
    behaviour_changes INTEGER NOT NULL,
    failures          INTEGER NOT NULL, -- build-failed, boot-failed, or perfbot could not go on
    calibration_id    INTEGER REFERENCES comparisons(id),
    summary           TEXT NOT NULL     -- a line per patch
);

-- perfbotd's queue: perfbot submit adds a job, the daemon runs them one at a
-- time. A job's comparison is stored, and the job marked done, in one
-- transaction.
CREATE TABLE jobs (
    id             INTEGER PRIMARY KEY,
    kind           TEXT NOT NULL,       -- run (perfbot run --patch N)
    queue          TEXT NOT NULL,       -- queue directory
    patch          INTEGER NOT NULL,
    workloads      TEXT NOT NULL,       -- space-separated --workload names; '' = chosen by paths
    force          INTEGER NOT NULL,
    state          TEXT NOT NULL,       -- queued | running | done | failed
    submitted_at   TEXT NOT NULL,
    started_at     TEXT,                -- of the latest attempt
    finished_at    TEXT,
    attempts       INTEGER NOT NULL DEFAULT 0,
    pid            INTEGER,             -- of the process running it
    log            TEXT,                -- its output
    comparison_id  INTEGER REFERENCES comparisons(id),
    exit_status    INTEGER,             -- perfbot run's
    message        TEXT,                -- outcome in a line
    journal_inputs TEXT,                -- what the journaled boots were booted with
    journal_seed   INTEGER,             -- their seed: a resumed job keeps its boot order
    overrides      TEXT NOT NULL DEFAULT '' -- submit's -c/--boots/... as section.key=value lines,
                                        -- applied over perfbotd's configuration when it runs
);

-- Boots of a running job, committed as each one completes, so that a job
-- whose perfbotd died resumes after its last completed boot. Moved into
-- runs and samples, and deleted, when the job's comparison is stored.
CREATE TABLE job_boots (
    job_id        INTEGER NOT NULL REFERENCES jobs(id),
    boot_index    INTEGER NOT NULL,     -- 1, 2, ... as in runs
    side          TEXT NOT NULL,        -- without | with
    outcome       TEXT NOT NULL,
    detail        TEXT NOT NULL,
    wall_seconds  REAL NOT NULL,
    qemu_cmdline  TEXT NOT NULL,
    console_log   TEXT NOT NULL,
    results_log   TEXT NOT NULL,
    PRIMARY KEY (job_id, boot_index)
);

CREATE TABLE job_samples (
    job_id     INTEGER NOT NULL,
    boot_index INTEGER NOT NULL,
    workload   TEXT NOT NULL,
    metric     TEXT NOT NULL,
    iteration  INTEGER NOT NULL,
    value      REAL NOT NULL,
    PRIMARY KEY (job_id, boot_index, workload, metric, iteration),
    FOREIGN KEY (job_id, boot_index) REFERENCES job_boots(job_id, boot_index)
);

CREATE INDEX runs_by_comparison ON runs (comparison_id);
CREATE INDEX comparisons_by_patch ON comparisons (patch_id);
CREATE UNIQUE INDEX comparisons_by_uid ON comparisons (uid);

PRAGMA user_version = 9;
