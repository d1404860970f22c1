/* libFuzzer target: the patch parser (queue.c), which reads mail sent by
 * anyone. Every input is parsed; success or a message, never a crash. */
#include <stdint.h>
#include <string.h>

#include "queue.h"

/* Inside the tree: not absolute, no ".." component (written apart from
 * queue.c's own check, so that the two can disagree). */
static int inside_tree(const char *path)
{
	const char *c = path;

	if (path[0] == '/')
		return 0;
	while (*c) {
		size_t n = strcspn(c, "/");

		if (n == 2 && c[0] == '.' && c[1] == '.')
			return 0;
		c += n;
		while (*c == '/')
			c++;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pb_patch p;
	pb_err err;

	if (patch_parse_buffer("fuzz.patch", (const char *)data, size, &p, &err)) {
		/* what the rest of perfbot reads of a parsed patch must be sane */
		if (!p.subject || !p.sha256 || p.nfiles < 1 || p.number < 1 || p.total < p.number)
			__builtin_trap();
		for (int i = 0; i < p.nfiles; i++)
			if (!p.files[i].path || !inside_tree(p.files[i].path))
				__builtin_trap();
		patch_free(&p);
	} else if (!err.msg[0]) {
		__builtin_trap(); /* a refusal always says why */
	}
	return 0;
}
