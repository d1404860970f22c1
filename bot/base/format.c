/* The number formats of format.h. */
#include "format.h"

#include <math.h>
#include <stdio.h>

void fmt_pct(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, fabs(v) < 1000 ? "%+.1f%%" : "%+.2g%%", v);
}

void fmt_value(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (fabs(v) < 1e9 && (fabs(v) >= 1000 || v == floor(v)))
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}
