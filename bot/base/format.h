/* How perfbot writes numbers wherever it shows them: the terminal, the
 * mail, the JSON's text, the report. */
#ifndef PERFBOT_FORMAT_H
#define PERFBOT_FORMAT_H

#include <stddef.h>

/* A change in percent in a few columns, never in e-notation below 1000%;
 * "-" for NAN. */
void fmt_pct(char *buf, size_t n, double v);
/* A median in at most 11 columns (9 below 1e9); "-" for NAN. */
void fmt_value(char *buf, size_t n, double v);

#endif
