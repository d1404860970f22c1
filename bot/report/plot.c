/* The report's plots: gnuplot scripts for strip and trend plots, run to
 * self-contained SVG files. */
#include "plot.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats.h"

void plot_safe_text(char *out, size_t n, const char *in)
{
	size_t k = 0;

	/* names come from workload declarations, but a title is never code */
	for (; in && *in && k + 1 < n; in++)
		out[k++] = isalnum((unsigned char)*in) || strchr(" _-./:+%()", *in) ? *in : '?';
	out[k] = '\0';
}

static const char *const header =
	"set terminal svg size 440,270 dynamic noenhanced font 'sans,10' background '#ffffff'\n"
	"set key off\nset grid ytics lc rgb '#dddddd'\nset border 3\nset tics nomirror\n";

/* Runs gnuplot on script (written next to the SVG, then removed). */
static bool run_gnuplot(const char *svg, const char *script, pb_err *err)
{
	char *gp = xasprintf("%s.gp", svg);
	char *argv[] = { "gnuplot", gp, NULL };
	struct spawn_opts o = { .stdout_path = "", .stderr_path = "", .timeout = 60 };
	struct spawn_result r;
	bool ok;

	if (strchr(svg, '\'') || strchr(svg, '\n')) {
		pb_seterr(err, "report: cannot plot into %s (a quote in the path)", svg);
		free(gp);
		return false;
	}
	ok = write_file_atomic(gp, script, strlen(script), err);
	if (ok) {
		ok = spawn_wait(argv, &o, &r) && r.status == 0 && path_exists(svg);
		if (!ok)
			pb_seterr(err, "gnuplot failed to draw %s", svg);
	}
	unlink(gp);
	free(gp);
	return ok;
}

bool plot_strip(const char *svg, const char *title, const char *unit,
		const struct plot_side *sides, int nsides, pb_err *err)
{
	char t[160], u[64];
	pb_str s;
	bool ok;

	plot_safe_text(t, sizeof(t), title);
	plot_safe_text(u, sizeof(u), unit);
	str_init(&s);
	str_addf(&s, "%sset output '%s'\nset title '%s'\nset ylabel '%s'\n", header, svg, t, u);
	str_addf(&s, "set xrange [-0.6:%d.6]\nset xtics (", nsides - 1);
	for (int i = 0; i < nsides; i++) {
		char l[64];

		plot_safe_text(l, sizeof(l), sides[i].label);
		str_addf(&s, "%s'%s' %d", i ? ", " : "", l, i);
	}
	str_add(&s, ")\n$d << EOD\n");
	for (int i = 0; i < nsides; i++) {
		const struct plot_side *p = &sides[i];

		for (int b = 0; b < p->nboots; b++) {
			/* boots side by side, each its own colour (lc variable) */
			double x = i + (p->nboots > 1 ? (b - (p->nboots - 1) / 2.0) * 0.5 / p->nboots : 0);

			for (int j = 0; j < p->n[b]; j++)
				str_addf(&s, "%.4f %.9g %d\n", x, p->v[b][j], b % 8 + 1);
		}
	}
	str_add(&s, "EOD\n");
	for (int i = 0; i < nsides; i++) {
		struct stats_group g = { sides[i].nboots, (const double *const *)sides[i].v, sides[i].n };
		double med = stats_group_median(&g);

		if (!isnan(med))
			str_addf(&s, "set arrow from %d-0.4,%.9g to %d+0.4,%.9g nohead lw 2 lc rgb '#333333' back\n",
				 i, med, i, med);
	}
	str_add(&s, "plot $d using 1:2:3 with points pt 7 ps 0.8 lc variable\n");
	ok = run_gnuplot(svg, s.buf, err);
	str_free(&s);
	return ok;
}

bool plot_trend(const char *svg, const char *title, const char *unit, const double *y,
		const char *const *labels, int n, pb_err *err)
{
	char t[160], u[64];
	pb_str s;
	bool ok;

	plot_safe_text(t, sizeof(t), title);
	plot_safe_text(u, sizeof(u), unit);
	str_init(&s);
	str_addf(&s, "%sset output '%s'\nset title '%s'\nset ylabel '%s'\nset xtics rotate by -30 (", header,
		 svg, t, u);
	for (int i = 0; i < n; i++) {
		char l[40];

		plot_safe_text(l, sizeof(l), labels[i]);
		str_addf(&s, "%s'%s' %d", i ? ", " : "", l, i);
	}
	str_addf(&s, ")\nset xrange [-0.5:%d.5]\n$d << EOD\n", n - 1);
	for (int i = 0; i < n; i++)
		if (!isnan(y[i]))
			str_addf(&s, "%d %.9g\n", i, y[i]);
	str_add(&s, "EOD\nplot $d using 1:2 with linespoints pt 7 ps 0.8 lw 1.5 lc rgb '#3366aa'\n");
	ok = run_gnuplot(svg, s.buf, err);
	str_free(&s);
	return ok;
}
