/*
 * The datapath seam's provider (src/datapath.h): a simulated OpenFlow
 * switch made and ended while a run goes on, for a bridge that an OVSDB
 * device was given with a Controller row, as ovs-vswitchd makes one of
 * every such bridge.  It is the switch of `sbsim openflow` (of_switch.c,
 * of_handlers.c: the same handshake, flow tables, echo, barrier, stats
 * and errors), alone on a pool of its own (one device, the controller
 * target as the endpoint, reconnecting with backoff as vswitchd's rconn
 * does), with its own struct of_sim for its datapath id and port count.
 * Its counters go to the run under datapath_* names; it times no phase
 * of its own (its phases are one shared inert, finished phase): the
 * asking device times the handshake through the up hook.
 */
#include <sys/queue.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"
#include "log.h"
#include "of_sim.h"

#define OF_DP_PORTS_MAX	64	/* what a 1.0 FEATURES_REPLY can list */
#define OF_DP_VERSIONS	((1u << OF_VERSION_13) | (1u << OF_VERSION_10))
/* ovs-vswitchd's rconn: backoff from 1 s to max_backoff (8 s), an
 * inactivity probe after 5 s (ovs-vswitchd.conf.db(5), Controller). */
#define OF_DP_BACKOFF_MIN_MS	1000
#define OF_DP_BACKOFF_MAX_MS	8000
#define OF_DP_PROBE_S		5

struct datapath {
	struct of_sim		 sim;
	struct of_switch	 sw;
	struct datapath_hooks	 hooks;
	char			 name[32];
	uint8_t			 role_told;	/* OF_ROLE_*, 0: none */
	LIST_ENTRY(datapath)	 entry;
};

static LIST_HEAD(, datapath)	 of_dps = LIST_HEAD_INITIALIZER(of_dps);
static struct of_counters	 of_dp_c;
static struct phase		 of_dp_inert;	/* DONE: drives nothing */
static uint64_t			*of_dp_attempts, *of_dp_failures;
static uint64_t			 of_dp_last_sweep;
static uint64_t			 of_dp_sink;	/* outside a run */

#define OFC(field, name)	COUNTER_ROW(struct of_counters, field, name)
static const struct counter_row of_dp_rows[] = {
	OFC(rx_msgs, "datapath_rx_messages"),
	OFC(tx_msgs, "datapath_tx_messages"),
	OFC(errors_sent, "datapath_errors_sent"),
	OFC(errors_received, "datapath_errors_received"),
	OFC(decode_errors, "datapath_decode_errors"),
	OFC(flow_mods, "datapath_flow_mods"),
	OFC(flow_mod_errors, "datapath_flow_mod_errors"),
	OFC(flows_added, "datapath_flows_added"),
	OFC(flows_modified, "datapath_flows_modified"),
	OFC(flows_deleted, "datapath_flows_deleted"),
	OFC(flows_expired, "datapath_flows_expired"),
	OFC(flow_removed_sent, "datapath_flow_removed_sent"),
	OFC(stats_requests, "datapath_stats_requests"),
	OFC(barriers, "datapath_barriers"),
	OFC(packet_outs, "datapath_packet_outs"),
	OFC(lldp_forwarded, "datapath_lldp_forwarded"),
	OFC(packet_ins_sent, "datapath_packet_ins_sent"),
	OFC(echo_rtt_samples, "datapath_echo_replies"),
	OFC(disconnects, "datapath_disconnects"),
	OFC(role_changes, "datapath_role_changes"),
	OFC(reads_paused, "datapath_reads_paused"),
};
#undef OFC

/* Every counter at a sink, so that a datapath opened outside a run (a
 * unit test) counts into nothing rather than through NULL. */
static void
of_dp_counters_sink(void)
{
	size_t	i;

	for (i = 0; i < sizeof(of_dp_rows) / sizeof(of_dp_rows[0]); i++)
		*(uint64_t **)(void *)((char *)&of_dp_c + of_dp_rows[i].off) =
		    &of_dp_sink;
	of_dp_attempts = of_dp_failures = &of_dp_sink;
}

static void
of_dp_start(struct metrics *m)
{
	of_dp_inert.state = PHASE_DONE;
	of_dp_last_sweep = clock_ns();
	METRICS_COUNTERS(m, of_dp_rows, &of_dp_c);
	of_dp_attempts = metrics_counter(m, "datapath_connect_attempts");
	of_dp_failures = metrics_counter(m, "datapath_connect_failures");
}

/* What a switch of `sbsim openflow` is by default, but one datapath id
 * and the bridge's ports. */
static void
of_dp_config(struct of_config *cfg, const struct datapath_spec *spec)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->switches = 1;
	cfg->version_bitmap = spec->versions != 0 ? spec->versions &
	    OF_DP_VERSIONS : OF_DP_VERSIONS;
	cfg->dpid_base = spec->dpid;
	cfg->ports = spec->ports > OF_DP_PORTS_MAX ? OF_DP_PORTS_MAX :
	    spec->ports;
	cfg->tables = 254;
	cfg->table_size = 1000000;
	cfg->n_ctl = 1;		/* a Controller row's one target */
	cfg->macs = 1000;
	cfg->pktin_window = 64;
	cfg->echo_interval = spec->probe_ms < 0 ? OF_DP_PROBE_S :
	    (double)spec->probe_ms / 1000;
	cfg->mp_max_bytes = 65535;
}

static void
of_dp_up_hook(struct of_switch *sw)
{
	struct datapath	*dp = (struct datapath *)(void *)((char *)sw -
	    offsetof(struct datapath, sw));

	log_debug("datapath %s (dpid %016llx): connected to %s", dp->name,
	    (unsigned long long)dp->sim.cfg.dpid_base, dp->sim.pcfg.ep.text);
	dp->role_told = OF_ROLE_EQUAL;	/* of_switch_up's */
	dp->hooks.up(dp->hooks.arg, sw->up_ns);
}

static void
of_dp_pool_up(struct pool_dev *pd, struct bufferevent *bev)
{
	of_switch_ops.up(pd, bev);
}

/* The switch's own down first; the asker hears of a handshake lost. */
static void
of_dp_pool_down(struct pool_dev *pd, const char *why)
{
	struct of_switch	*sw = (struct of_switch *)pd;
	struct datapath		*dp = (struct datapath *)(void *)((char *)sw -
	    offsetof(struct datapath, sw));
	int			 was_up = sw->state == OFS_UP;

	of_switch_ops.down(pd, why);
	dp->role_told = 0;
	if (was_up)
		dp->hooks.down(dp->hooks.arg, why);
}

static const struct pool_ops of_dp_pool_ops = {
	of_dp_pool_up,
	of_dp_pool_down,
	"the controller",
};

static void
of_dp_sim_init(struct datapath *dp, const struct datapath_spec *spec)
{
	struct of_sim	*sim = &dp->sim;

	of_dp_config(&sim->cfg, spec);
	pool_config_defaults(&sim->pcfg);
	sim->pcfg.ep = spec->ep;
	sim->pcfg.src = spec->src;	/* one address, or none */
	sim->pcfg.backoff_min_ms = OF_DP_BACKOFF_MIN_MS;
	sim->pcfg.backoff_max_ms = spec->max_backoff_ms != 0 ?
	    spec->max_backoff_ms : OF_DP_BACKOFF_MAX_MS;
	if (sim->pcfg.backoff_min_ms > sim->pcfg.backoff_max_ms)
		sim->pcfg.backoff_min_ms = sim->pcfg.backoff_max_ms;
	sim->c = of_dp_c;
	/* One controller: the cluster's counters are `sbsim openflow`'s
	 * (docs/report.md), a datapath's go to the sink. */
	sim->c.role_stale = sim->c.is_slave_refused = &of_dp_sink;
	sim->c.role_status_sent = sim->c.failover_flow_mods = &of_dp_sink;
	sim->c.ctl_flow_mods[0] = &of_dp_sink;
	sim->ph[OFP_CONNECT] = &of_dp_inert;
	sim->ph[OFP_PROGRAM] = &of_dp_inert;
	sim->ph[OFP_DELETE] = &of_dp_inert;
	sim->on_up = of_dp_up_hook;
	sim->sw = &dp->sw;
	dp->sw.sim = sim;
	dp->sw.owner = &dp->sw;
	of_roles_init(&dp->sw.roles, 1);
	dp->sw.miss_send_len = 128;
	dp->sw.ports = xcalloc(sim->cfg.ports, sizeof(*dp->sw.ports));
}

static struct datapath *
of_dp_open(const struct datapath_spec *spec,
    const struct datapath_hooks *hooks, char *err, size_t errlen)
{
	struct datapath	*dp;

	if (spec->versions != 0 && (spec->versions & OF_DP_VERSIONS) == 0) {
		snprintf(err, errlen, "none of the bridge's OpenFlow versions "
		    "is simulated (1.0 and 1.3 are)");
		return NULL;
	}
	dp = xcalloc(1, sizeof(*dp));
	if (of_dp_c.rx_msgs == NULL)
		of_dp_counters_sink();
	of_dp_inert.state = PHASE_DONE;
	snprintf(dp->name, sizeof(dp->name), "%s", spec->name);
	dp->hooks = *hooks;
	of_dp_sim_init(dp, spec);
	pool_init_array(&dp->sim.pool, &dp->sim.pcfg, &of_dp_pool_ops,
	    &dp->sw, sizeof(dp->sw), offsetof(struct of_switch, pd), 1);
	if (pool_start(&dp->sim.pool, err, errlen) == -1) {
		pool_stop(&dp->sim.pool);
		pool_free(&dp->sim.pool);
		of_switch_free(&dp->sw);
		free(dp);
		return NULL;
	}
	LIST_INSERT_HEAD(&of_dps, dp, entry);
	return dp;
}

static void
of_dp_close(struct datapath *dp)
{
	LIST_REMOVE(dp, entry);
	pool_stop(&dp->sim.pool);
	*of_dp_attempts += dp->sim.pool.stats.attempts;
	*of_dp_failures += dp->sim.pool.stats.failures;
	of_switch_free(&dp->sw);
	pool_free(&dp->sim.pool);
	free(dp);
}

/* PORT_STATUS for port no, if the async config lets the reason
 * through (1.3 section 7.4.3; 1.0 has no SET_ASYNC). */
static void
of_dp_port_status(struct of_switch *sw, uint32_t no, uint8_t reason)
{
	struct of_port	 p;
	struct wbuf	*w;

	if (sw->state != OFS_UP || (sw->async.port_status[of_conn_role(sw)
	    == OF_ROLE_SLAVE] & (1u << reason)) == 0)
		return;
	of_port_fill(sw, no, &p);
	w = of_scratch();
	of_port_status_encode(w, sw->version, 0, reason, &p);
	of_switch_send(sw, w);
}

/* The bridge's ports are 1..n now: the ports past n deleted, the new
 * ones added (config and state as a new port's: 0). */
static void
of_dp_ports(struct datapath *dp, uint32_t n)
{
	struct of_switch	*sw = &dp->sw;
	uint32_t		 old = dp->sim.cfg.ports, i;

	if (n > OF_DP_PORTS_MAX)
		n = OF_DP_PORTS_MAX;
	if (n == old)
		return;
	for (i = old; i > n; i--)
		of_dp_port_status(sw, i, OF_PR_DELETE);
	sw->ports = xreallocarray(sw->ports, n ? n : 1, sizeof(*sw->ports));
	if (n > old)
		memset(sw->ports + old, 0, (n - old) * sizeof(*sw->ports));
	dp->sim.cfg.ports = n;
	for (i = old + 1; i <= n; i++)
		of_dp_port_status(sw, i, OF_PR_ADD);
}

/* A ROLE_REQUEST changed the controller's role (1.3 section 6.3.5):
 * the asker hears it by its name in the Controller row. */
static void
of_dp_role(struct datapath *dp)
{
	static const char *const names[] = {
		[OF_ROLE_EQUAL] = "other", [OF_ROLE_MASTER] = "master",
		[OF_ROLE_SLAVE] = "slave",
	};
	uint8_t	role = of_conn_role(&dp->sw);

	if (dp->sw.state != OFS_UP || role == dp->role_told ||
	    role < OF_ROLE_EQUAL || role > OF_ROLE_SLAVE)
		return;
	dp->role_told = role;
	if (dp->hooks.role != NULL)
		dp->hooks.role(dp->hooks.arg, names[role]);
}

/* Once a second, as `sbsim openflow` does: echo and flow timeouts; and
 * roles, as vswitchd refreshes the Controller rows now and then. */
static void
of_dp_tick(uint64_t now)
{
	struct datapath	*dp;

	if (now - of_dp_last_sweep < 1000000000ull)
		return;
	of_dp_last_sweep = now;
	LIST_FOREACH(dp, &of_dps, entry) {
		of_switch_sweep(&dp->sim, now);
		of_dp_role(dp);
	}
}

/* The run is over (every datapath closed): its counters go. */
static void
of_dp_stop(void)
{
	of_dp_counters_sink();
}

const struct datapath_provider of_datapath = {
	"openflow",
	of_dp_start,
	of_dp_open,
	of_dp_ports,
	of_dp_close,
	of_dp_tick,
	of_dp_stop,
};
