/* perfbot bench: how sensitive the verdicts are. Builds the base kernel and
 * the base with kernels/bench/<series>/slowdown.patch, a synthetic slowdown
 * of the anonymous THP fault path (perfbot_slow_thp=N clears N subpages of
 * each new THP again) and of the migration copy (perfbot_slow_migrate=N
 * copies N subpages of each migrated folio again), tunable on the kernel
 * command line. For each accelerator mode it boots pools of the base kernel
 * and of the slowed kernel at each strength, interleaved, then draws many
 * comparisons from the pools and runs the verdict procedure on each exactly
 * as `perfbot run` does (the same boots per kernel, the same adaptive extra
 * boots, a noise floor from the base pool as a calibration would give):
 * detection rate per strength, false alarms of A/A comparisons (base against
 * base, and base against the slowed kernel at strength 0), and the boot time
 * each comparison cost. It prints figures; it passes or fails nothing.
 *
 * bench --parallel N is the A/A check of guests side by side instead
 * (pipeline_parallel_check): it fails when they measure something else. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"
#include "comparison.h"
#include "host.h"
#include "kernel.h"
#include "measure.h"
#include "pipeline.h"
#include "queue.h"

/* What the slowdown patch slows, and what proves the slowed path ran. */
static const struct target {
	const char *name, *workload, *param, *metric, *proof;
} targets[] = {
	{ "THP anonymous fault", "thp-anon", "perfbot_slow_thp", "fault_always_ms_per_gib",
	  "thp_fault_alloc_always" },
	{ "hugetlb migration", "hugetlb-migrate", "perfbot_slow_migrate", "anon_vmemmap_off_migrate_ms",
	  "anon_vmemmap_off_pages_migrated" },
};
#define NTARGETS ((int)PB_ARRAY_SIZE(targets))

#define MAX_STRENGTHS 8
/* measurement a wall-clock comparison may take: the target's 3 minutes */
#define BENCH_BUDGET_S 180.0
#define MAX_MODES 3

/* The boots of one kernel at one strength. */
struct pool {
	int strength;              /* N of both parameters; -1: the base kernel */
	struct boot *boots;
	int n, dropped;
	double wall;
};

struct bench {
	const struct pb_config *cfg;
	const char *mode;
	struct guest_plan *gp;
	const char *kernel_base, *kernel_slow, *initrd, *log_dir;
	struct accel accel;
	struct pool pools[MAX_STRENGTHS + 1];
	int npools;
	int per_side, max_per_side, draws;
	struct comparison tmpl;
	gsl_rng *rng;
};

static bool parse_list(const char *arg, int *v, int max, int *n)
{
	char *copy = xstrdup(arg), *save = NULL, *end;

	*n = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long x = strtol(t, &end, 10);

		if (*n == max || !t[0] || *end || x < 0 || x > 100000) {
			free(copy);
			return false;
		}
		v[(*n)++] = (int)x;
	}
	free(copy);
	return *n > 0;
}

static bool boot_proves(const struct boot *bt, const char *workload, const char *metric)
{
	for (int i = 0; i < bt->rec.results.nsamples; i++) {
		const struct result_sample *s = &bt->rec.results.samples[i];

		if (!strcmp(s->workload, workload) && !strcmp(s->metric, metric) && s->value > 0)
			return true;
	}
	return false;
}

/* One boot into a pool; a boot that is not ok, or whose workloads did not
 * run the slowed paths, is dropped and counted, never scored as a miss. */
static bool pool_boot(struct bench *b, struct pool *p, pb_err *err)
{
	struct guest_plan gp = *b->gp;
	char *cmdline = NULL, *prefix;
	struct boot bt = { 0 };
	bool proven = true;

	if (p->strength < 0)
		prefix = xasprintf("%s/base-%02d", b->log_dir, p->n + p->dropped + 1);
	else
		prefix = xasprintf("%s/slow%d-%02d", b->log_dir, p->strength, p->n + p->dropped + 1);
	if (p->strength >= 0) {
		cmdline = xasprintf("%s perfbot_slow_thp=%d perfbot_slow_migrate=%d", gp.kernel_cmdline,
				    p->strength, p->strength);
		gp.kernel_cmdline = cmdline;
	}
	bt.side = SIDE_WITHOUT;
	if (!vm_boot(b->cfg, &b->accel, &gp, p->strength < 0 ? b->kernel_base : b->kernel_slow,
		     b->initrd, prefix, &bt.rec, err)) {
		free(prefix);
		free(cmdline);
		return false;
	}
	for (int t = 0; t < NTARGETS; t++)
		proven &= boot_proves(&bt, targets[t].workload, targets[t].proof);
	p->wall += bt.rec.wall_seconds;
	if (bt.rec.outcome == BOOT_OK && proven) {
		p->boots = xrealloc(p->boots, sizeof(*p->boots) * (size_t)(p->n + 1));
		p->boots[p->n++] = bt;
	} else {
		fprintf(stderr, "\nperfbot: bench: dropped a boot (%s%s%s)\n", boot_outcome_name(bt.rec.outcome),
			proven ? "" : ", a slowed path did not run", bt.rec.detail ? "" : "");
		p->dropped++;
		boot_record_free(&bt.rec);
	}
	free(prefix);
	free(cmdline);
	return true;
}

/* Every pool once per round and the base twice (its pool is also split
 * for base-against-base A/A), in a shuffled order: drift hits all alike. */
static bool fill_pools(struct bench *b, int rounds, pb_err *err)
{
	int order[MAX_STRENGTHS + 2], per_round = b->npools + 1, total = rounds * per_round, done = 0;

	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < b->npools; i++)
			order[i] = i;
		order[b->npools] = 0;
		for (int i = per_round - 1; i > 0; i--) {
			int j = (int)gsl_rng_uniform_int(b->rng, (unsigned long)i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (int i = 0; i < per_round; i++) {
			struct pool *p = &b->pools[order[i]];

			char what[32];

			if (p->strength < 0)
				snprintf(what, sizeof(what), "base");
			else
				snprintf(what, sizeof(what), "slowed, N=%d", p->strength);
			fprintf(stderr, "\rperfbot: bench %s: boot %d/%d (%s)      ", b->mode, ++done, total,
				what);
			if (!pool_boot(b, p, err))
				return false;
		}
	}
	fputc('\n', stderr);
	return true;
}

static void shuffle_ptrs(gsl_rng *rng, const struct boot **v, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)gsl_rng_uniform_int(rng, (unsigned long)i + 1);
		const struct boot *t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

/* One drawn comparison, with run's schedule: per_side boots a kernel, then
 * one more of each while something is inconclusive, up to max_per_side.
 * When a and b are the same pool the draws are disjoint. */
static void draw(struct bench *b, const struct pool *pa, const struct pool *pb,
		 struct comparison *out, int *used)
{
	const struct boot **va = xcalloc((size_t)(pa->n + pb->n + 1), sizeof(*va));
	const struct boot **vb;
	int na = pa->n, nb = pb->n, k;

	for (int i = 0; i < pa->n; i++)
		va[i] = &pa->boots[i];
	shuffle_ptrs(b->rng, va, na);
	if (pa == pb) {
		na = pa->n / 2;
		nb = pa->n - na;
		vb = va + na;
	} else {
		vb = va + pa->n;
		for (int i = 0; i < pb->n; i++)
			vb[i] = &pb->boots[i];
		shuffle_ptrs(b->rng, vb, nb);
	}
	k = b->per_side;
	for (;;) {
		int ka = k < na ? k : na, kb = k < nb ? k : nb;

		comparison_subset(&b->tmpl, va, ka, vb, kb, out);
		*used = ka > kb ? ka : kb;
		if (!compare_inconclusive(&out->findings) || k >= b->max_per_side || (ka == na && kb == nb))
			break;
		comparison_subset_free(out);
		k++;
	}
	free(va);
}

static const struct metric_result *find_result(const struct comparison *c, const char *workload,
					       const char *metric)
{
	for (int i = 0; i < c->findings.nresults; i++)
		if (!strcmp(c->findings.results[i].workload, workload) && !strcmp(c->findings.results[i].def->name, metric))
			return &c->findings.results[i];
	return NULL;
}

static double mean_boot_wall(const struct bench *b)
{
	double w = 0;
	int n = 0;

	for (int i = 0; i < b->npools; i++)
		w += b->pools[i].wall, n += b->pools[i].n + b->pools[i].dropped;
	return n ? w / n : NAN;
}

/* The noise floor a calibration of the base kernel would store, in the
 * template every drawn comparison is made from. */
static void base_noise(struct bench *b)
{
	const struct pool *base = &b->pools[0];
	struct comparison all;
	const struct boot **v = xcalloc((size_t)base->n + 1, sizeof(*v));
	int nf;

	for (int i = 0; i < base->n; i++)
		v[i] = &base->boots[i];
	comparison_subset(&b->tmpl, v, base->n, v, 0, &all);
	b->tmpl.noise.floor = noise_measure(&all.policy, &all.obs, &nf);
	b->tmpl.noise.n = nf;
	comparison_subset_free(&all);
	free(v);
}

/* The change of the target's metric from the base pool to p, from every
 * boot of both: the effect the draws should find. */
static double pool_effect(struct bench *b, const struct pool *p, const struct target *tg)
{
	const struct pool *base = &b->pools[0];
	struct comparison full;
	const struct boot **va = xcalloc((size_t)(base->n + p->n + 1), sizeof(*va));
	const struct metric_result *m;
	double effect;

	for (int i = 0; i < base->n; i++)
		va[i] = &base->boots[i];
	for (int i = 0; i < p->n; i++)
		va[base->n + i] = &p->boots[i];
	comparison_subset(&b->tmpl, va, base->n, va + base->n, p->n, &full);
	m = find_result(&full, tg->workload, tg->metric);
	effect = m ? m->change_pct : NAN;
	comparison_subset_free(&full);
	free(va);
	return effect;
}

/* The base's noise floor of the target's metric (its last entry), or NULL. */
static const struct noise_floor *target_noise(const struct bench *b, const struct target *tg)
{
	const struct noise_floor *nfl = NULL;

	for (int i = 0; i < b->tmpl.noise.n; i++)
		if (!strcmp(b->tmpl.noise.floor[i].workload, tg->workload) &&
		    !strcmp(b->tmpl.noise.floor[i].metric, tg->metric))
			nfl = &b->tmpl.noise.floor[i];
	return nfl;
}

/* The line of one target at p's strength: how many of the draws against
 * the base flag its metric a regression, and what they cost in boots. */
static void detection_line(struct bench *b, const struct pool *p, const struct target *tg,
			   double boot_s, FILE *out)
{
	const struct pool *base = &b->pools[0];
	const struct metric_result *m;
	const struct noise_floor *nfl;
	double effect = pool_effect(b, p, tg);
	int detected = 0, boots = 0, used, inconclusive = 0, incomparable = 0;
	char misses[64];

	for (int d = 0; d < b->draws; d++) {
		struct comparison c;

		draw(b, base, p, &c, &used);
		m = find_result(&c, tg->workload, tg->metric);
		detected += m && m->verdict == VERDICT_REGRESSION;
		inconclusive += m && m->verdict == VERDICT_INCONCLUSIVE;
		incomparable += m && m->verdict == VERDICT_NOT_COMPARABLE;
		boots += used;
		comparison_subset_free(&c);
	}
	nfl = target_noise(b, tg);
	/* why the others were not flagged */
	snprintf(misses, sizeof(misses), "%d inconcl., %d n.c., %d other", inconclusive,
		 incomparable, b->draws - detected - inconclusive - incomparable);
	fprintf(out, "%-10s  %-20s  N=%-4d %+8.3f%% %7.3f%%  %5.1f  %5.1f%% (%d/%d)  %-30s  %6.0f s\n",
		b->mode, tg->name, p->strength, effect, nfl ? nfl->between_cv_pct : NAN,
		(double)boots / b->draws, 100.0 * detected / b->draws, detected, b->draws,
		misses, 2.0 * boots / b->draws * boot_s);
}

/* An A/A line: how many draws of the base against p (the base itself,
 * drawn disjoint, or the slowed kernel at N=0) flag anything at all. */
static void false_alarm_line(struct bench *b, const struct pool *p, const char *what,
			     double boot_s, FILE *out)
{
	int flagged = 0, boots = 0, used, metric_flags = 0, tested_all = 0;
	char fa[80];

	for (int d = 0; d < b->draws; d++) {
		struct comparison c;
		int tested, f;

		draw(b, &b->pools[0], p, &c, &used);
		f = compare_flagged(&c.findings, &tested);
		flagged += f > 0;
		metric_flags += f;
		tested_all += tested;
		boots += used;
		comparison_subset_free(&c);
	}
	snprintf(fa, sizeof(fa), "%.2f%% (%d/%d; %d/%d m.)", 100.0 * flagged / b->draws,
		 flagged, b->draws, metric_flags, tested_all);
	fprintf(out, "%-10s  %-20s  %-6s %9s %8s  %5.1f  %-16s  %-30s  %6.0f s\n", b->mode,
		what, "-", "-", "-", (double)boots / b->draws, "-", fa,
		2.0 * boots / b->draws * boot_s);
}

/* The figures of one mode: a line per target and strength, then A/A. */
static void evaluate(struct bench *b, FILE *out)
{
	const struct pool *base = &b->pools[0];
	double boot_s = mean_boot_wall(b);

	base_noise(b);
	for (int t = 0; t < NTARGETS; t++) {
		for (int s = 1; s < b->npools; s++) {
			const struct pool *p = &b->pools[s];

			if (p->strength != 0 && p->n && base->n)
				detection_line(b, p, &targets[t], boot_s, out);
		}
	}
	/* A/A: base against base (disjoint draws), base against slowed at N=0 */
	for (int s = 0; s < b->npools; s++) {
		if (s > 0 && b->pools[s].strength != 0)
			continue;
		if (s == 0 && base->n < 2 * b->per_side)
			continue;
		false_alarm_line(b, &b->pools[s], s == 0 ? "A/A base vs base" : "A/A base vs N=0",
				 boot_s, out);
	}
	noise_free((struct noise_floor *)b->tmpl.noise.floor, b->tmpl.noise.n);
	b->tmpl.noise.floor = NULL;
	b->tmpl.noise.n = 0;
}

static void pools_free(struct bench *b)
{
	for (int i = 0; i < b->npools; i++) {
		for (int k = 0; k < b->pools[i].n; k++)
			boot_record_free(&b->pools[i].boots[k].rec);
		free(b->pools[i].boots);
	}
	memset(b->pools, 0, sizeof(b->pools));
	b->npools = 0;
}

struct bench_opts {
	enum accel_kind modes[MAX_MODES];
	int nmodes;
	int strengths[MAX_STRENGTHS], nstrengths;
	int wall_strengths[MAX_STRENGTHS], nwall_strengths;
	int pool, draws;
	int parallel;                /* --parallel: guests at once for the A/A check; -1: not asked */
	char *only[CLI_MAX_WORKLOADS];
	int nonly;
};

/* The plan's first stages: the two workloads, the tree, the base and the
 * base with the synthetic slowdown, built. */
static bool bench_kernels(struct pipeline *pl, struct kernel_change *base, struct kernel_change *slow,
			  struct kernel_image img[2], char **patch)
{
	char *names[NTARGETS], *why = NULL, *kernels, *slash;
	const struct kernel_change *change[2] = { base, slow };
	bool ok;

	for (int t = 0; t < NTARGETS; t++)
		names[t] = (char *)targets[t].workload;
	ok = pipeline_prepare(pl, &(struct prepare){
					  .stages = STAGE_WORKLOADS | STAGE_TREE | STAGE_SELFTESTS,
					  .only = names, .nonly = NTARGETS, .why = &why });
	free(why);
	if (!ok)
		return false;
	/* kernels/bench/ beside kernels/ports/ */
	kernels = xstrdup(pl->cfg->ports_dir);
	slash = strrchr(kernels, '/');
	if (slash)
		*slash = '\0';
	*patch = xasprintf("%s/bench/%s/slowdown.patch", slash ? kernels : ".", pl->tree.series);
	free(kernels);
	if (!path_exists(*patch)) {
		pb_seterr(&pl->err, "bench: no synthetic slowdown patch %s for %s", *patch,
			  pl->tree.series);
		return false;
	}
	kernel_change_set(base, NULL, false, "base");
	kernel_change_set(slow, *patch, false, "base+slowdown");
	if (!stage_configure(pl) || !stage_build(pl, change, img, false))
		return false;
	if (!img[0].built || !img[1].built) {
		pb_seterr(&pl->err, "bench: a kernel failed to build: %s", img[img[0].built].log);
		return false;
	}
	return true;
}

/* One accelerator mode: its pools booted, its draws evaluated. */
static bool bench_mode(struct pipeline *pl, struct pb_config *cfg, struct bench *b,
		       const struct bench_opts *o, enum accel_kind kind)
{
	const char *mode = accel_kind_name(kind);
	char *name = xasprintf("bench-%s", mode);
	int pool;
	bool icount, ok;

	if (!config_set(cfg, "qemu", "accel", mode, &pl->err)) {
		free(name);
		return false;
	}
	b->mode = mode;
	ok = stage_guests(pl, name, b->kernel_base);
	free(name);
	if (!ok)
		return false;
	b->initrd = pl->initrd;
	b->log_dir = pl->log_dir;
	b->accel = pl->accel;
	verdict_policy_init(&b->tmpl.policy, cfg, b->accel.kind);
	b->tmpl.accel = b->accel;
	/* icount: 2 boots a kernel, as the target asks; wall clock: run's own
	 * adaptive schedule, up to what about 3 minutes of boots allow */
	icount = b->accel.kind == ACCEL_TCG_ICOUNT;
	pool = o->pool ? o->pool : icount ? 6 : 12;
	b->per_side = cfg->boots;
	b->max_per_side = icount ? cfg->boots : pool / 2;
	{
		const int *st = icount ? o->strengths : o->wall_strengths;
		int nst = icount ? o->nstrengths : o->nwall_strengths;

		b->npools = 1 + nst;
		b->pools[0].strength = -1;
		for (int s = 0; s < nst; s++)
			b->pools[1 + s].strength = st[s];
	}
	if (!fill_pools(b, pool, &pl->err))
		return false;
	if (!icount) {
		int fit = (int)(BENCH_BUDGET_S / (2 * mean_boot_wall(b)));

		/* no more than half a pool, so that draws differ */
		b->max_per_side = fit < b->per_side ? b->per_side : fit < pool / 2 ? fit : pool / 2;
	}
	printf("%-10s  pools: %d boots of each strength, %d of the base; a comparison takes %d boots "
	       "a kernel%s; mean boot %.1f s\n", b->mode, pool, 2 * pool, b->per_side,
	       b->max_per_side > b->per_side ? " and more while inconclusive" : "", mean_boot_wall(b));
	if (b->max_per_side > b->per_side)
		printf("%-10s  (at most %d a kernel: about 3 minutes of boots, or half a pool)\n", b->mode,
		       b->max_per_side);
	evaluate(b, stdout);
	fflush(stdout);
	pools_free(b);
	return true;
}

static int bench(struct pb_config *cfg, const struct bench_opts *o)
{
	struct kernel_change base = { 0 }, slow = { 0 };
	struct kernel_image img[2];
	struct pipeline pl;
	struct bench b = { 0 };
	char *patch = NULL;
	int rc = PB_EXIT_ERROR;

	memset(img, 0, sizeof(img));
	pipeline_init(&pl, cfg);
	if (!bench_kernels(&pl, &base, &slow, img, &patch))
		goto fail;
	b.cfg = cfg;
	b.gp = &pl.gp;
	b.kernel_base = img[0].bzimage;
	b.kernel_slow = img[1].bzimage;
	b.draws = o->draws;
	b.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(b.rng, measure_seed(cfg));
	b.tmpl.kind = KIND_PATCH;
	b.tmpl.obs.workloads = pl.chosen;
	b.tmpl.obs.nworkloads = pl.nchosen;
	b.tmpl.obs.iterations = cfg->iterations;
	printf("perfbot bench: base %s against base+slowdown (%s); %d drawn comparisons per line; "
	       "%d+%d iterations per boot\n",
	       pl.tree.version, patch, o->draws, cfg->warmup, cfg->iterations);
	printf("%-10s  %-20s  %-6s %9s %8s  %5s  %-16s  %-30s  %8s\n", "mode", "slowed path", "N",
	       "effect", "noise", "boots", "detected", "misses / false alarms", "boot time");
	for (int mi = 0; mi < o->nmodes; mi++)
		if (!bench_mode(&pl, cfg, &b, o, o->modes[mi]))
			goto fail;
	printf("perfbot bench: %.0f s in all; effect: the change of the pooled medians over every boot; "
	       "boots: per kernel, on average; boot time: of one comparison, both kernels\n",
	       now_seconds() - pl.start);
	rc = PB_EXIT_OK;
	goto out;
fail:
	cli_error("%s", pl.err.msg);
out:
	pools_free(&b);
	if (b.rng)
		gsl_rng_free(b.rng);
	kernel_image_free(&img[0]);
	kernel_image_free(&img[1]);
	kernel_change_free(&base);
	kernel_change_free(&slow);
	pipeline_free(&pl);
	free(patch);
	return rc;
}

static const struct pb_usage usage = { "perfbot bench", "[options]", NULL };

/* --modes: accelerators by name (auto is none). */
static bool modes_option(const struct pb_option *opt, const char *arg, void *value, pb_err *err)
{
	struct bench_opts *o = value;
	char *copy = xstrdup(arg), *save = NULL;
	bool ok = true;

	(void)opt;
	o->nmodes = 0;
	for (char *t = strtok_r(copy, ",", &save); ok && t; t = strtok_r(NULL, ",", &save)) {
		enum accel_kind k;

		ok = o->nmodes < MAX_MODES && accel_kind_parse(t, &k) && k != ACCEL_AUTO;
		if (ok)
			o->modes[o->nmodes++] = k;
	}
	free(copy);
	if (!ok || !o->nmodes)
		pb_seterr(err, "--modes takes up to %d of %s, %s, %s", MAX_MODES,
			  accel_kind_name(ACCEL_TCG_ICOUNT), accel_kind_name(ACCEL_TCG),
			  accel_kind_name(ACCEL_KVM));
	return ok && o->nmodes;
}

/* --strengths and --wall-strengths. */
static bool strengths_option(const struct pb_option *opt, const char *arg, void *value, pb_err *err)
{
	struct bench_opts *o = value;
	bool wall = !strcmp(opt->long_name, "wall-strengths");

	if (parse_list(arg, wall ? o->wall_strengths : o->strengths, MAX_STRENGTHS,
		       wall ? &o->nwall_strengths : &o->nstrengths))
		return true;
	pb_seterr(err, "--%s takes up to %d numbers, e.g. 0,5,10", opt->long_name, MAX_STRENGTHS);
	return false;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts o = { .modes = { ACCEL_TCG_ICOUNT, ACCEL_TCG }, .nmodes = 2,
				.strengths = { 0, 3, 6, 11, 28 }, .nstrengths = 5,
				.wall_strengths = { 0, 34, 84, 170 }, .nwall_strengths = 4,
				.pool = 0, .draws = 400, .parallel = -1 };
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	int rc;
	const struct pb_option opts[] = {
		OPT_CALLBACK(0, "modes", &o, "LIST",
			     "accelerator modes, comma-separated (default tcg-icount,tcg)", modes_option),
		OPT_CALLBACK(0, "strengths", &o, "LIST",
			     "N of the synthetic slowdown under tcg-icount (default\n"
			     "0,3,6,11,28: about 0, 0.5, 1, 2 and 5%; N/512 of a THP's\n"
			     "clearing or of a 2 MiB page's copy)", strengths_option),
		OPT_CALLBACK(0, "wall-strengths", &o, "LIST",
			     "the same in wall-clock modes, where clearing and copying\n"
			     "weigh less (default 0,34,84,170)", strengths_option),
		OPT_INTEGER(0, "pool", &o.pool, "N", 2, 100000, "boots",
			    "boots of each kernel and strength per mode, the base twice\n"
			    "(default 6 under tcg-icount, 12 in wall-clock modes)"),
		OPT_INTEGER(0, "draws", &o.draws, "N", 10, 100000, "comparisons",
			    "comparisons drawn per strength (default 400)"),
		OPT_INTEGER(0, "parallel", &o.parallel, "N", 0, 1024, "guests",
			    "instead: the A/A check of N guests at once against one at a\n"
			    "time (0: one per host CPU), --pool boots of each (default 8)"),
		OPT_CLI_WORKLOADS(o.only, &o.nonly,
				  "--parallel: this workload (repeatable; default thp-anon,\n"
				  "thp-file-ro, hugetlb-migrate)"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, NULL);
	if (rc != PB_OPT_GO_ON)
		goto out;
	if (!cli_load_config_queue(&c, &cfg, &q)) {
		rc = PB_EXIT_ERROR;
		goto out;
	}
	if (o.parallel == 1) {
		cli_error("--parallel takes 0 (one guest per host CPU) or 2 or more: 1 is one at a time");
		rc = PB_EXIT_USAGE;
	} else if (o.parallel >= 0) {
		static char *timed[] = { "thp-anon", "thp-file-ro", "hugetlb-migrate" };
		int pool = o.pool ? o.pool : 8;
		pb_err err;

		rc = cli_run_status(pipeline_parallel_check(&cfg, &q, o.nonly ? o.only : timed,
							    o.nonly ? o.nonly : (int)PB_ARRAY_SIZE(timed),
							    pool > 3 ? pool / 2 : 2, o.parallel, &err),
				    NULL, &err);
	} else {
		rc = bench(&cfg, &o);
	}
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
