/*
 * The NETCONF SSH channel's ordered input (nc_chan.h): data that libssh
 * hands over while a message is being handled or written waits and is
 * fed from the event loop, behind what came before it, never inline.
 */
#include <string.h>

#include <event2/event.h>

#include "check.h"
#include "engine.h"
#include "nc_chan.h"

static char	fed[256];
static size_t	fed_len;
static int	afters;
static struct nc_chan_in *reenter;	/* feed hands this more data */
static const char *reenter_with;
static size_t	take_max = (size_t)-1;	/* a paused reader takes less */

static size_t
feed(void *arg, const void *p, size_t len)
{
	const char	*more = reenter_with;

	(void)arg;
	if (len > take_max)
		len = take_max;
	take_max -= take_max == (size_t)-1 ? 0 : len;
	if (fed_len + len < sizeof(fed)) {
		memcpy(fed + fed_len, p, len);
		fed_len += len;
		fed[fed_len] = '\0';
	}
	/* As libssh does when our reply's write flushes the socket. */
	if (reenter != NULL && more != NULL) {
		reenter_with = NULL;
		nc_chan_in_data(reenter, more, strlen(more));
	}
	return len;
}

static void
after(void *arg)
{
	(void)arg;
	afters++;
}

static void
stop_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	engine_stop("test");
}

static void
run_loop(void)
{
	struct timeval	tv = { 0, 50000 };

	event_base_once(engine_base(), -1, EV_TIMEOUT, stop_cb, NULL, &tv);
	engine_run();
}

static void
setup(struct nc_chan_in *in)
{
	fed_len = 0;
	fed[0] = '\0';
	afters = 0;
	reenter = NULL;
	reenter_with = NULL;
	take_max = (size_t)-1;
	nc_chan_in_init(in, feed, after, NULL);
}

static void
test_inline_when_idle(void)
{
	struct nc_chan_in	in;

	engine_init();
	setup(&in);
	nc_chan_in_data(&in, "ab", 2);
	nc_chan_in_data(&in, "cd", 2);
	CHECK(strcmp(fed, "abcd") == 0, "idle: fed at once, in order (%s)",
	    fed);
	CHECK(in.q == NULL, "idle: no queue allocated");
	run_loop();
	CHECK(afters == 0, "idle: nothing left for the loop");
	nc_chan_in_free(&in);
	engine_free();
}

static void
test_reentry_waits(void)
{
	struct nc_chan_in	in;

	engine_init();
	setup(&in);
	reenter = &in;
	reenter_with = "2";
	nc_chan_in_data(&in, "1", 1);
	CHECK(strcmp(fed, "1") == 0, "data handed over inside feed() waits "
	    "(%s)", fed);
	nc_chan_in_data(&in, "3", 1);
	CHECK(strcmp(fed, "1") == 0, "and what comes after it waits behind "
	    "it (%s)", fed);
	run_loop();
	CHECK(strcmp(fed, "123") == 0, "the loop feeds it in order (%s)",
	    fed);
	CHECK(afters == 1, "after() once the waiting data is fed (%d)",
	    afters);
	nc_chan_in_data(&in, "4", 1);
	CHECK(strcmp(fed, "1234") == 0, "idle again: inline (%s)", fed);
	nc_chan_in_free(&in);
	engine_free();
}

/* A reader whose output is full takes part of the data: the rest, and
 * what comes after it, waits in order until it resumes. */
static void
test_paused_reader(void)
{
	struct nc_chan_in	in;

	engine_init();
	setup(&in);
	take_max = 2;
	nc_chan_in_data(&in, "abcd", 4);
	CHECK(strcmp(fed, "ab") == 0, "paused after what it took (%s)", fed);
	CHECK(nc_chan_in_waiting(&in), "the rest waits");
	nc_chan_in_data(&in, "ef", 2);
	run_loop();
	CHECK(strcmp(fed, "ab") == 0, "nothing more while paused (%s)", fed);
	take_max = (size_t)-1;
	nc_chan_in_resume(&in);
	run_loop();
	CHECK(strcmp(fed, "abcdef") == 0, "resumed in order (%s)", fed);
	CHECK(!nc_chan_in_waiting(&in), "nothing waits after the resume");
	CHECK(afters >= 1, "after() runs on the resume");
	nc_chan_in_free(&in);
	engine_free();
}

static void
test_busy_write_waits(void)
{
	struct nc_chan_in	in;

	engine_init();
	setup(&in);
	in.busy++;		/* inside ssh_channel_write (nc_chan_put) */
	nc_chan_in_data(&in, "A", 1);
	nc_chan_in_data(&in, "B", 1);
	CHECK(fed_len == 0, "nothing fed while a write runs");
	in.busy--;
	nc_chan_in_data(&in, "C", 1);
	CHECK(fed_len == 0, "data after the write still waits behind");
	run_loop();
	CHECK(strcmp(fed, "ABC") == 0, "fed from the loop in order (%s)",
	    fed);
	CHECK(nc_chan_put(NULL, &in, "x", 1, &(size_t){ 0 }) == 0,
	    "a channel not open yet takes nothing");
	nc_chan_in_free(&in);
	engine_free();
}

static void
test_free_with_waiting(void)
{
	struct nc_chan_in	in;

	engine_init();
	setup(&in);
	in.busy++;
	nc_chan_in_data(&in, "lost", 4);
	in.busy--;
	nc_chan_in_free(&in);	/* the session died: no leak, no feed */
	run_loop();
	CHECK(fed_len == 0 && afters == 0, "freed input is not fed");
	engine_free();
}

static const struct check_case cases[] = {
	CASE(test_inline_when_idle),
	CASE(test_reentry_waits),
	CASE(test_busy_write_waits),
	CASE(test_paused_reader),
	CASE(test_free_with_waiting),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
