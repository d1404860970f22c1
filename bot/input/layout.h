/* Where perfbot's own files are, and where it keeps its state and cache:
 * a checkout (build/perfbot beside workloads/ and kernels/) or an install
 * under a prefix (PREFIX/bin/perfbot, PREFIX/share/perfbot,
 * PREFIX/lib/perfbot). config.ini's defaults come from here. */
#ifndef PERFBOT_LAYOUT_H
#define PERFBOT_LAYOUT_H

#include <stdbool.h>

/* The system-wide directories: the package's `perfbot` user owns both. */
#define LAYOUT_SYSTEM_STATE "/var/lib/perfbot"
#define LAYOUT_SYSTEM_CACHE "/var/cache/perfbot"
#include "sysconfdir.h" /* PERFBOT_SYSCONFDIR, from make's SYSCONFDIR */

struct pb_layout {
	bool installed;       /* PREFIX/bin/perfbot with PREFIX/share/perfbot */
	char *data_dir;       /* workloads/, queue/, kernels/: the checkout's top or
			       * PREFIX/share/perfbot; NULL: neither was found */
	char *guest_bin_dir;  /* the static guest programs */
	char *state_dir;      /* installed: results.db and reports/ (NULL in a checkout,
			       * where they go beside config.ini) */
	char *cache_dir;      /* the default cache.dir */
	char *user_config;    /* $XDG_CONFIG_HOME/perfbot/config.ini, NULL without a home */
	char *system_config;  /* PERFBOT_SYSCONFDIR/perfbot/config.ini */
};

/* Worked out once, from /proc/self/exe and who runs perfbot: root, or the
 * owner of LAYOUT_SYSTEM_STATE / LAYOUT_SYSTEM_CACHE, uses those; anyone
 * else the XDG directories under their home. */
const struct pb_layout *layout_get(void);
/* The same for a binary in bin_dir (NULL: unknown), for the tests. */
void layout_compute(struct pb_layout *l, const char *bin_dir);
void layout_free(struct pb_layout *l);

#endif
