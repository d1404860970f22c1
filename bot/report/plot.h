/* Plots for the report, drawn by gnuplot as self-contained SVG files. */
#ifndef PERFBOT_PLOT_H
#define PERFBOT_PLOT_H

#include "util.h"

/* Boots of one side a plot shows at most. */
#define PLOT_MAX_BOOTS 64

/* One kernel's samples of a metric, boot by boot. */
struct plot_side {
	const char *label;
	int nboots;
	double **v;      /* v[boot][i] */
	int *n;
};

/* A strip plot: each side's samples in a column, every boot in its own
 * colour and offset, each side's median as a bar. */
bool plot_strip(const char *svg, const char *title, const char *unit,
		const struct plot_side *sides, int nsides, pb_err *err);

/* A metric over time: y[i] at x labels[i] (dates). */
bool plot_trend(const char *svg, const char *title, const char *unit, const double *y,
		const char *const *labels, int n, pb_err *err);

/* Text that is safe inside a gnuplot double-quoted string. */
void plot_safe_text(char *out, size_t n, const char *in);

#endif
