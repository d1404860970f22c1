/* What the library says goes to the sink the command set (base/event.h):
 * each stream to its own, partial lines as they come, long text whole,
 * a renderer's FILE at its close; and back to the terminal's with NULL. */
#include <string.h>

#include "check.h"
#include "event.h"
#include "util.h"

struct heard {
	pb_str said[2];
	int flushes;
};

static void heard_write(void *ctx, enum event_stream s, const char *text, size_t len)
{
	struct heard *h = ctx;

	str_addf(&h->said[s == EVENT_SAY ? 0 : 1], "%.*s", (int)len, text);
}

static void heard_flush(void *ctx, enum event_stream s)
{
	struct heard *h = ctx;

	(void)s;
	h->flushes++;
}

void test_event(void)
{
	struct heard h = { .flushes = 0 };
	const struct event_sink sink = { heard_write, heard_flush, &h };
	struct event_buffer eb;
	char long_text[3000];

	str_init(&h.said[0]);
	str_init(&h.said[1]);
	memset(long_text, 'x', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	event_sink_set(&sink);
	event_say("perfbot: accelerator %s\n", "tcg-icount");
	event_progress("perfbot: boot %d/%d  without:", 1, 6);
	event_progress(" ok in %.1f s\n", 3.25);
	event_flush(EVENT_PROGRESS);
	event_say("%s|\n", long_text);
	CHECK(event_buffer_open(&eb, EVENT_SAY));
	fprintf(eb.f, "table %d\n", 7);
	event_buffer_close(&eb);
	event_write(EVENT_PROGRESS, "raw", 3);
	event_sink_set(NULL);
	CHECK_INT(strncmp(h.said[0].buf, "perfbot: accelerator tcg-icount\n", 32), 0);
	CHECK_STR(h.said[1].buf, "perfbot: boot 1/6  without: ok in 3.2 s\nraw");
	CHECK_INT(h.flushes, 1);
	/* the long line whole, then the buffer's text after it */
	CHECK_INT(strlen(h.said[0].buf), 32 + sizeof(long_text) - 1 + 2 + 8);
	CHECK(strstr(h.said[0].buf, long_text) != NULL);
	CHECK_HAS(h.said[0].buf, "x|\ntable 7\n");
	str_free(&h.said[0]);
	str_free(&h.said[1]);
}
