/*
 * `sbsim dummy --devices N --controller tcp:IP:PORT [--hellos K]`: N
 * devices through the engine's pool, each saying K hellos one after the
 * other; phases connect (devices up, target N) and hello (hellos
 * answered, target N x K).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "cmd.h"
#include "dummy.h"
#include "log.h"
#include "metrics.h"
#include "opt.h"
#include "run.h"

static const char dummy_usage[] =
"usage: sbsim dummy --devices N --controller tcp:IP:PORT [options]\n"
"Test devices that say hello to the controller's dummy role.\n";

#define DC	struct dummy_config
static const struct opt dummy_rows[] = {
	OPT_U("devices", "N", DC, devices, 1, 100000, 0,
	    "devices to simulate (required)"),
	OPT_U("hellos", "K", DC, hellos, 1, 1000000, 0,
	    "hellos each device says, one answered before\n"
	    "the next (default 1)"),
	OPT_END
};
#undef DC

static const char *const dummy_phase_names[] = { "connect", "hello", NULL };

static void
dummy_say(struct dummy_dev *d, struct bufferevent *bev)
{
	evbuffer_add_printf(bufferevent_get_output(bev), "HELLO %u %u\n",
	    d->id, d->answered + 1);
}

/* "OK ID SEQ" for this device's hello in flight, or a bad line. */
static void
dummy_read(struct bufferevent *bev, void *arg)
{
	struct dummy_dev	*d = arg;
	struct dummy_sim	*sim = d->sim;
	char			*line;
	unsigned		 id, seq;
	size_t			 len;

	while ((line = evbuffer_readln(bufferevent_get_input(bev), &len,
	    EVBUFFER_EOL_LF)) != NULL) {
		if (sscanf(line, "OK %u %u", &id, &seq) != 2 || id != d->id ||
		    seq != d->answered + 1 || d->answered == sim->cfg.hellos) {
			(*sim->bad_lines)++;
			free(line);
			pool_lost(&d->pd, "a reply that is not ours");
			return;
		}
		free(line);
		d->answered++;
		phase_items(sim->hello, clock_ns(), 1);
		if (d->answered < sim->cfg.hellos)
			dummy_say(d, bev);
	}
	if (evbuffer_get_length(bufferevent_get_input(bev)) > DUMMY_LINE_MAX) {
		(*sim->bad_lines)++;
		pool_lost(&d->pd, "a line past its bound");
	}
}

static void
dummy_up(struct pool_dev *pd, struct bufferevent *bev)
{
	struct dummy_dev	*d = (struct dummy_dev *)pd;

	if (!d->counted) {
		d->counted = 1;
		phase_items(d->sim->connect, clock_ns(), 1);
	}
	bufferevent_setcb(bev, dummy_read, NULL, pool_bev_event, d);
	bufferevent_enable(bev, EV_READ);
	if (d->answered < d->sim->cfg.hellos)
		dummy_say(d, bev);
}

static void
dummy_down(struct pool_dev *pd, const char *why)
{
	log_debug("dummy device %u down: %s", pd->index, why);
}

static const struct pool_ops dummy_pool_ops = {
	dummy_up, dummy_down, "the controller",
};

static uint32_t
dummy_fds_needed(void *arg)
{
	struct dummy_sim	*sim = arg;

	return pool_fds_needed(&sim->pcfg, sim->cfg.devices);
}

static int
dummy_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct dummy_sim	*sim = arg;
	uint32_t		 i;

	sim->m = m;
	sim->bad_lines = metrics_counter(m, "bad_lines");
	sim->connect = metrics_phase(m, "connect", "dummy");
	sim->connect->target = sim->cfg.devices;
	sim->hello = metrics_phase(m, "hello", "dummy");
	sim->hello->target = (uint64_t)sim->cfg.devices * sim->cfg.hellos;
	sim->devs = xcalloc(sim->cfg.devices, sizeof(*sim->devs));
	for (i = 0; i < sim->cfg.devices; i++) {
		sim->devs[i].sim = sim;
		sim->devs[i].id = i;
	}
	pool_init_array(&sim->pool, &sim->pcfg, &dummy_pool_ops, sim->devs,
	    sizeof(*sim->devs), offsetof(struct dummy_dev, pd),
	    sim->cfg.devices);
	phase_start(sim->connect, clock_ns());
	phase_start(sim->hello, clock_ns());
	return pool_start(&sim->pool, err, errlen);
}

static int
dummy_tick(void *arg, uint64_t now)
{
	struct dummy_sim	*sim = arg;

	(void)run_phase_timeout(sim->connect, now, sim->phase_timeout);
	(void)run_phase_timeout(sim->hello, now, sim->phase_timeout);
	return phase_over(sim->connect) && phase_over(sim->hello);
}

static void
dummy_stop(void *arg)
{
	struct dummy_sim	*sim = arg;

	if (sim->devs == NULL)
		return;
	pool_stop_counted(&sim->pool, sim->m);
	pool_free(&sim->pool);
	free(sim->devs);
	sim->devs = NULL;
}

static const struct sim_ops dummy_sim_ops = {
	"dummy", dummy_phase_names, dummy_fds_needed, dummy_start,
	dummy_tick, dummy_stop, "devices",
	offsetof(struct dummy_sim, cfg.devices), NULL, 0,
};

static int
dummy_main(int argc, char **argv)
{
	struct dummy_sim	*sim = run_sim_new(sizeof(*sim));
	struct opt_group	 groups[] = {
		{ NULL, dummy_rows, &sim->cfg, NULL },
	};
	struct run_opts		 ro;

	sim->cfg.hellos = 1;
	cli_parse_groups(argc, argv, groups, 1, &ro, dummy_usage);
	log_init("sbsim", ro.verbose);
	if (sim->cfg.devices == 0)
		cli_die(&ro, "--devices N is required");
	run_pool_config(&sim->pcfg, &ro, "--controller", ro.controller,
	    1u << EP_TCP, "devices connect to the controller (tcp:IP:PORT)",
	    sim->cfg.devices);
	sim->phase_timeout = ro.phase_timeout;
	return run_main(&dummy_sim_ops, sim, &ro);
}

const struct sbsim_cmd dummy_cmd = {
	"dummy",
	"simulate test devices that say hello (the test build's)",
	dummy_main,
};
