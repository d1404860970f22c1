/* The event sinks of event.h. */
#include "event.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

static FILE *terminal_stream(enum event_stream s)
{
	return s == EVENT_SAY ? stdout : stderr;
}

static void terminal_write(void *ctx, enum event_stream s, const char *text, size_t len)
{
	(void)ctx;
	fwrite(text, 1, len, terminal_stream(s));
}

static void terminal_flush(void *ctx, enum event_stream s)
{
	(void)ctx;
	fflush(terminal_stream(s));
}

static void stderr_write(void *ctx, enum event_stream s, const char *text, size_t len)
{
	(void)ctx;
	(void)s;
	fwrite(text, 1, len, stderr);
}

static void stderr_flush(void *ctx, enum event_stream s)
{
	(void)ctx;
	(void)s;
	fflush(stderr);
}

const struct event_sink event_terminal = { terminal_write, terminal_flush, NULL };
const struct event_sink event_stderr = { stderr_write, stderr_flush, NULL };

static const struct event_sink *sink = &event_terminal;

void event_sink_set(const struct event_sink *s)
{
	sink = s ? s : &event_terminal;
}

void event_write(enum event_stream s, const char *text, size_t len)
{
	sink->write(sink->ctx, s, text, len);
}

void event_flush(enum event_stream s)
{
	if (sink->flush)
		sink->flush(sink->ctx, s);
}

static void event_vsay(enum event_stream s, const char *fmt, va_list ap)
{
	char small[512], *text = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(again);
		return;
	}
	if ((size_t)n >= sizeof(small)) {
		text = xmalloc((size_t)n + 1);
		vsnprintf(text, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	event_write(s, text, (size_t)n);
	if (text != small)
		free(text);
}

void event_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	event_vsay(EVENT_SAY, fmt, ap);
	va_end(ap);
}

void event_progress(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	event_vsay(EVENT_PROGRESS, fmt, ap);
	va_end(ap);
}

bool event_buffer_open(struct event_buffer *b, enum event_stream s)
{
	b->text = NULL;
	b->len = 0;
	b->s = s;
	b->f = open_memstream(&b->text, &b->len);
	if (!b->f)
		xalloc_failed(); /* it fails only for want of memory */
	return true;
}

void event_buffer_close(struct event_buffer *b)
{
	if (b->f && fclose(b->f) == 0)
		event_write(b->s, b->text, b->len);
	free(b->text);
	b->f = NULL;
	b->text = NULL;
}
