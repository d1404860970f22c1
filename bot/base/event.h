/* What the library layers (run/, db/, kernel/, vm/) say while they work:
 * what a run found and decided, and the progress of long work. They never
 * print: they hand the text to the sink the command set, which puts it
 * where it belongs: the terminal's stdout and stderr (the default; a
 * perfbotd job's are its log), or all of it on stderr (perfbot run
 * --json, whose stdout is the JSON). Text comes as printf would print it,
 * partial lines included: a boot's line is finished when the boot ends.
 * A sink's write must not keep the text; the sink is set before any work
 * starts (boots run in threads, a build in a child: they say through it). */
#ifndef PERFBOT_EVENT_H
#define PERFBOT_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum event_stream {
	EVENT_SAY,       /* what a run found or decided: the terminal's stdout */
	EVENT_PROGRESS,  /* steps of long work, warnings, what went wrong: its stderr */
};

struct event_sink {
	void (*write)(void *ctx, enum event_stream s, const char *text, size_t len);
	void (*flush)(void *ctx, enum event_stream s);  /* NULL: nothing to flush */
	void *ctx;
};

/* The sink from now on (it must outlive its use); NULL: the terminal. */
void event_sink_set(const struct event_sink *sink);
/* The terminal: EVENT_SAY on stdout, EVENT_PROGRESS on stderr. */
extern const struct event_sink event_terminal;
/* Everything on stderr: stdout stays the command's own. */
extern const struct event_sink event_stderr;

__attribute__((format(printf, 1, 2))) void event_say(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void event_progress(const char *fmt, ...);
void event_write(enum event_stream s, const char *text, size_t len);
/* What was said so far is out (before a fork, before a long wait). */
void event_flush(enum event_stream s);

/* A FILE for a renderer that writes to one (answer.h's): what it wrote
 * goes to the sink, on stream s, when the buffer is closed. Out of memory
 * is the end of perfbot, as for xmalloc: it returns true. */
struct event_buffer {
	FILE *f;
	char *text;
	size_t len;
	enum event_stream s;
};
bool event_buffer_open(struct event_buffer *b, enum event_stream s);
void event_buffer_close(struct event_buffer *b);

#endif
