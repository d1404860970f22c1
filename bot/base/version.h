/* Which perfbot this is. */
#ifndef PERFBOT_VERSION_H
#define PERFBOT_VERSION_H

/* git describe of the tree that was built (build/version.c, rewritten
 * only when it changes, so a new commit relinks with the right string). */
extern const char perfbot_version[];

#endif
