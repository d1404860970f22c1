/* perfbot pair [--patch N | --series [--mm-only]] [--json]: how the kernel
 * pair of each mm patch, or of the queue as a whole, would be formed
 * (forward, reverse, port), from patch(1) on the work copy only: nothing
 * is built. --json: the same as one JSON array, an object a pair. */
#include <stdlib.h>

#include "cli.h"
#include "json.h"
#include "kernel.h"
#include "queue.h"

static const struct pb_usage usage = { "perfbot pair",
				       "[--patch N | --series [--mm-only]] [--json] [options]", NULL };

/* One kernel of a pair: its label and the patch(1) runs that make it from
 * the base, in order (none for the base itself), each with the queue's
 * patch it stands for (a series' own; else number, a port's too). */
static void json_kernel(struct json *j, const char *key, const struct kernel_change *c, int number)
{
	json_object_begin(j, key);
	json_string(j, "label", c->label);
	json_array_begin(j, "applied");
	for (int i = 0; i < c->nsteps; i++) {
		const struct change_step *s = &c->steps[i];

		json_object_begin(j, NULL);
		json_string(j, "file", s->file);
		json_bool(j, "reverse", s->reverse);
		json_string(j, "sha256", s->sha256[0] ? s->sha256 : NULL);
		if (s->number > 0 || number > 0)
			json_int(j, "patch", s->number > 0 ? s->number : number);
		else
			json_null(j, "patch");
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* One pair as an object of --json's array: what it is for (patch p, or
 * with p NULL the series called name), then plan, or (plan NULL) the
 * error that stopped it. */
static void json_pair(struct json *j, const struct pb_patch *p, const char *name,
		      const struct pair_plan *plan, const char *error)
{
	char label[PATCH_LABEL_SIZE];
	const struct kernel_change *c = NULL;

	if (plan)
		c = plan->method == PAIR_FORWARD ? &plan->with : &plan->without;
	json_object_begin(j, NULL);
	if (p && p->number > 0)
		json_int(j, "patch", p->number);
	else
		json_null(j, "patch");
	json_string(j, "label", p ? patch_label(label, p->number, p->sha256) : name);
	json_string(j, "method", plan ? pair_method_name(plan->method) : NULL);
	json_string(j, "detail", plan ? plan->detail : NULL);
	json_string(j, "summary", c ? c->summary : NULL);
	if (plan) {
		json_kernel(j, "without", &plan->without, p ? p->number : 0);
		json_kernel(j, "with", &plan->with, p ? p->number : 0);
	} else {
		json_null(j, "without");
		json_null(j, "with");
	}
	json_string(j, "error", error);
	json_object_end(j);
}

/* The queue as a whole, as run --series would pair it: a line, or (j) an
 * object of j's array. A series that forms no pair is an error. */
static int pair_series(const struct pb_config *cfg, struct kernel_tree *tree,
		       const struct pb_queue *q, bool mm_only, struct json *j)
{
	const struct pb_patch **ps = xcalloc((size_t)q->npatches + 1, sizeof(*ps));
	int n = queue_series_patches(q, mm_only, ps);
	struct pair_plan plan;
	pb_err err;

	if (!pair_decide_series(cfg, tree, ps, n, &plan, &err)) {
		cli_error("%s", err.msg);
		free(ps);
		return PB_EXIT_ERROR;
	}
	if (j) {
		char *name = queue_series_name(q);

		json_pair(j, NULL, name, &plan, NULL);
		free(name);
	} else {
		const struct kernel_change *c = plan.method == PAIR_FORWARD ? &plan.with : &plan.without;
		char *detail = visible(plan.detail), *summary = visible(c->summary);

		printf("series %-8s without: %-11s with: %-11s %s\n  %s\n",
		       pair_method_name(plan.method), plan.without.label, plan.with.label, detail,
		       summary);
		free(detail);
		free(summary);
	}
	pair_plan_free(&plan);
	free(ps);
	return PB_EXIT_OK;
}

/* Patch number's pair, or every mm patch's: a line each, or (j) an object
 * each of j's array. A patch that forms no pair is an error. */
static int pair_patches(const struct pb_config *cfg, struct kernel_tree *tree,
			const struct pb_queue *q, int number, struct json *j)
{
	int rc = PB_EXIT_OK, tried = 0;
	pb_err err;

	for (int i = 0; i < q->npatches; i++) {
		const struct pb_patch *p = &q->patches[i];
		struct pair_plan plan;
		bool ok;

		if (number ? p->number != number : !p->is_mm)
			continue;
		tried++;
		ok = pair_decide(cfg, tree, p, &plan, &err);
		if (!ok)
			rc = PB_EXIT_ERROR;
		if (j) {
			json_pair(j, p, NULL, ok ? &plan : NULL, ok ? NULL : err.msg);
		} else if (ok) {
			/* the detail may quote patch(1) on the patch's own file names */
			char *without = visible(plan.without.label), *with = visible(plan.with.label);
			char *detail = visible(plan.detail);

			printf("%03d %-8s without: %-10s with: %-10s %s\n", p->number,
			       pair_method_name(plan.method), without, with, detail);
			free(without);
			free(with);
			free(detail);
		} else {
			printf("%03d %-8s %s\n", p->number, "none", err.msg);
		}
		if (ok)
			pair_plan_free(&plan);
	}
	if (!tried && !j) {
		char *dir = visible(q->dir);

		printf("no mm patch in %s\n", dir);
		free(dir);
	}
	return rc;
}

int cmd_pair(int argc, char **argv)
{
	struct cli c = { 0 };
	struct pb_config cfg;
	struct pb_queue q;
	struct kernel_tree tree;
	int rc, number = 0;
	bool series = false, mm_only = false, json = false;
	pb_err err;
	const struct pb_option opts[] = {
		OPT_CLI_PATCH(&number, "only this patch, mm or not (default: every mm patch)"),
		OPT_BOOL('s', "series", &series, "the queue as a whole, as run --series pairs it"),
		OPT_BOOL(0, "mm-only", &mm_only, "with --series: only its mm patches"),
		OPT_BOOL(0, "json", &json, "the pairs as one JSON array, an object each"),
		OPT_CLI_COMMON(&c),
		OPT_END(),
	};

	rc = parse_options(argc, argv, opts, &usage, NULL);
	if (rc != PB_OPT_GO_ON)
		goto out;
	rc = PB_EXIT_ERROR;
	if (!cli_load_config_queue(&c, &cfg, &q))
		goto out;
	if (number && !queue_find(&q, number)) {
		cli_error("patch %d is not in the queue %s", number, q.dir);
	} else if ((series && number) || (mm_only && !series)) {
		cli_error("pair: --series takes no --patch, and --mm-only goes with --series");
		rc = PB_EXIT_USAGE;
	} else if (!tree_prepare(&cfg, &tree, &err)) {
		cli_error("%s", err.msg);
	} else {
		struct json j;
		pb_str out;

		/* the document is printed whole, or (a series that forms no
		 * pair: its error on stderr) not at all */
		str_init(&out);
		json_init(&j, &out);
		json_array_begin(&j, NULL);
		if (series)
			rc = pair_series(&cfg, &tree, &q, mm_only, json ? &j : NULL);
		else
			rc = pair_patches(&cfg, &tree, &q, number, json ? &j : NULL);
		json_array_end(&j);
		if (json && !(series && rc != PB_EXIT_OK))
			fputs(out.buf, stdout);
		str_free(&out);
		tree_free(&tree);
	}
	queue_free(&q);
	config_free(&cfg);
out:
	cli_free(&c);
	return rc;
}
