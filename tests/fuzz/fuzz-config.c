/* libFuzzer target: config.ini (config.c over libinih), through a memfd so
 * that the real file path of config_load runs; the input's first line, if it
 * holds '=', is also tried as a -c override. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pb_config cfg;
	char path[64];
	pb_err err;
	int fd = memfd_create("fuzz-config", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (config_load(&cfg, path, &err)) {
		const char *nl = memchr(data, '\n', size);
		size_t n = nl ? (size_t)(nl - (const char *)data) : size;
		char line[256];

		if (n < sizeof(line)) {
			memcpy(line, data, n);
			line[n] = '\0';
			if (strchr(line, '=') && !memchr(line, '\0', n))
				(void)config_override(&cfg, line, &err);
		}
		config_free(&cfg);
	} else if (!err.msg[0]) {
		__builtin_trap();
	}
	close(fd);
	return 0;
}
