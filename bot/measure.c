#include "measure.h"

#include <fcntl.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

unsigned long measure_seed(const struct pb_config *cfg)
{
	unsigned int r = 0;
	int fd;

	if (cfg->seed)
		return (unsigned long)cfg->seed;
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		r = (unsigned int)time(NULL) ^ (unsigned int)getpid();
	if (fd >= 0)
		close(fd);
	r &= 0x7fffffff; /* fits config's run.seed, so any run can be repeated */
	return r ? r : 1;
}

int measure_ok_boots(const struct comparison *cmp, enum side s)
{
	int n = 0;

	for (int b = 0; b < cmp->nboots; b++)
		n += cmp->boots[b].side == s && cmp->boots[b].rec.outcome == BOOT_OK;
	return n;
}

static bool boot_one(const struct pb_config *cfg, struct comparison *cmp,
		     const struct measure_plan *mp, enum side s, int shown_total, pb_err *err)
{
	struct boot *bt = &cmp->boots[cmp->nboots];
	char *prefix = xasprintf("%s/boot%02d-%s", mp->log_dir, cmp->nboots + 1, side_name(s));
	bool ok;

	fprintf(stderr, "perfbot: boot %d/%d  %s (%s, %s) ...", cmp->nboots + 1, shown_total,
		mp->aa ? (s ? "side B" : "side A") : s ? "with    the fix" : "without the fix",
		mp->label[s], cmp->accel.name);
	fflush(stderr);
	bt->side = s;
	ok = vm_boot(cfg, &cmp->accel, mp->guest, mp->kernel[s], mp->initrd, prefix, &bt->rec, err);
	if (ok) {
		cmp->nboots++;
		fprintf(stderr, " %s in %.1f s%s%s\n", boot_outcome_name(bt->rec.outcome),
			bt->rec.wall_seconds, bt->rec.outcome != BOOT_OK && bt->rec.detail ? ": " : "",
			bt->rec.outcome != BOOT_OK && bt->rec.detail ? bt->rec.detail : "");
	} else {
		fputc('\n', stderr);
	}
	free(prefix);
	return ok;
}

/* One boot of each side, in an order the seeded generator picks: a drift of
 * the host (another job starting, thermal) lands on both sides alike. */
static bool round_of_boots(const struct pb_config *cfg, struct comparison *cmp,
			   const struct measure_plan *mp, gsl_rng *order, int shown_total,
			   pb_err *err)
{
	enum side first = gsl_rng_uniform_int(order, 2) ? SIDE_WITH : SIDE_WITHOUT;

	cmp->boots = xrealloc(cmp->boots, sizeof(*cmp->boots) * (size_t)(cmp->nboots + 2));
	memset(cmp->boots + cmp->nboots, 0, 2 * sizeof(*cmp->boots));
	return boot_one(cfg, cmp, mp, first, shown_total, err) &&
	       boot_one(cfg, cmp, mp, (enum side)!first, shown_total, err);
}

static double boot_seconds(const struct comparison *cmp)
{
	double t = 0;

	for (int b = 0; b < cmp->nboots; b++)
		t += cmp->boots[b].rec.wall_seconds;
	return t;
}

bool measure_boots(const struct pb_config *cfg, struct comparison *cmp,
		   const struct measure_plan *mp, pb_err *err)
{
	gsl_rng *order = gsl_rng_alloc(gsl_rng_mt19937);
	int rounds = 0;
	bool ok = true;

	gsl_rng_set(order, cmp->seed);
	while (ok && rounds < mp->first_rounds) {
		ok = round_of_boots(cfg, cmp, mp, order, 2 * mp->first_rounds, err);
		rounds++;
	}
	cmp->boots_per_kernel = rounds;
	if (ok)
		compare_compute(cmp);
	while (ok && rounds < mp->max_rounds && measure_ok_boots(cmp, SIDE_WITHOUT) &&
	       measure_ok_boots(cmp, SIDE_WITH)) {
		int open = compare_inconclusive(cmp);
		double spent = boot_seconds(cmp);

		if (!open)
			break;
		/* a round takes about what the last two boots took */
		if (mp->budget_seconds > 0 && spent + spent / rounds > mp->budget_seconds) {
			fprintf(stderr, "perfbot: %d metric(s) inconclusive; the boot budget (%.0f s) is "
					"spent\n", open, mp->budget_seconds);
			break;
		}
		fprintf(stderr, "perfbot: %d metric(s) inconclusive after %d boots per kernel: one more "
				"of each (at most %d)\n", open, rounds, mp->max_rounds);
		ok = round_of_boots(cfg, cmp, mp, order, 2 * (rounds + 1), err);
		rounds++;
		cmp->boots_per_kernel = rounds;
		if (ok)
			compare_compute(cmp);
	}
	gsl_rng_free(order);
	return ok;
}
