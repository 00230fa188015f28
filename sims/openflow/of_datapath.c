/*
 * The datapath seam's provider (src/core/datapath.h): a simulated OpenFlow
 * switch made and ended while a run goes on, for a bridge that an OVSDB
 * device was given with a Controller row, as ovs-vswitchd makes one of
 * every such bridge.  It is the switch of `sbsim openflow` (of_switch.c,
 * of_handlers.c: the same handshake, flow tables, echo, barrier, stats
 * and errors), alone on a pool of its own per controller target (one
 * device, the target as the endpoint, reconnecting with backoff as
 * vswitchd's rconn does), with its own struct of_sim for its datapath id
 * and port count.  With several targets it is a switch of `sbsim
 * openflow --controller EP,EP`: one connection per controller, sharing
 * the flow table and ports, each with its role (of_cluster.c).
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
#include "of_bundle.h"
#include "of_sim.h"

#define OF_DP_PORTS_MAX	64	/* what a 1.0 FEATURES_REPLY can list */
#define OF_DP_VERSIONS	((1u << OF_VERSION_13) | (1u << OF_VERSION_10))
/* ovs-vswitchd's rconn: backoff from 1 s to max_backoff (8 s), an
 * inactivity probe after 5 s (ovs-vswitchd.conf.db(5), Controller). */
#define OF_DP_BACKOFF_MIN_MS	1000
#define OF_DP_BACKOFF_MAX_MS	8000
#define OF_DP_PROBE_S		5

#if DATAPATH_MAX_TARGETS > OF_MAX_CONTROLLERS
#error "a datapath has more targets than a switch has controllers"
#endif

/* sw[k]: the connection to target k; sw[0] owns what they share. */
struct datapath {
	struct of_sim		 sim;
	struct of_switch	 sw[DATAPATH_MAX_TARGETS];
	struct pool_config	 pcfg_more[DATAPATH_MAX_TARGETS - 1];
	struct pool		 pool_more[DATAPATH_MAX_TARGETS - 1];
	struct datapath_hooks	 hooks;
	char			 name[32];
	uint8_t			 role_told[DATAPATH_MAX_TARGETS]; /* 0: none */
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

/* Counters with no datapath_* row (groups, bundles, ...) count into the
 * sink rather than through NULL: of_counters is pointers only. */
static void
of_dp_counters_unrowed(struct of_counters *c)
{
	uint64_t	**p = (uint64_t **)(void *)c;
	size_t		  i;

	for (i = 0; i < sizeof(*c) / sizeof(*p); i++)
		if (p[i] == NULL)
			p[i] = &of_dp_sink;
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
	cfg->n_ctl = spec->n_ep;	/* a Controller row's target each */
	cfg->macs = 1000;
	cfg->pktin_window = 64;
	cfg->echo_interval = spec->probe_ms < 0 ? OF_DP_PROBE_S :
	    (double)spec->probe_ms / 1000;
	cfg->mp_max_bytes = 65535;
	cfg->bundles_max = OF_BUNDLES_MAX;
	cfg->bundle_msgs_max = OF_BUNDLE_MSGS_MAX;
	cfg->bundle_bytes_max = OF_BUNDLE_BYTES_MAX;
	cfg->bundle_timeout = OF_BUNDLE_TIMEOUT;
}

/* The datapath of connection sw (any of its sw[]). */
static struct datapath *
of_dp_of(struct of_switch *sw)
{
	return (struct datapath *)(void *)((char *)(sw - sw->ctl) -
	    offsetof(struct datapath, sw));
}

/* Target k's pool and its configuration (k = 0: the first). */
static struct pool *
of_dp_pool(struct datapath *dp, unsigned k)
{
	return k == 0 ? &dp->sim.pool : &dp->pool_more[k - 1];
}

static struct pool_config *
of_dp_pcfg(struct datapath *dp, unsigned k)
{
	return k == 0 ? &dp->sim.pcfg : &dp->pcfg_more[k - 1];
}

static void
of_dp_up_hook(struct of_switch *sw)
{
	struct datapath	*dp = of_dp_of(sw);

	log_debug("datapath %s (dpid %016llx): connected to %s", dp->name,
	    (unsigned long long)dp->sim.cfg.dpid_base,
	    of_dp_pcfg(dp, sw->ctl)->ep.text);
	dp->role_told[sw->ctl] = OF_ROLE_EQUAL;	/* of_switch_up's */
	dp->hooks.up(dp->hooks.arg, sw->ctl, sw->up_ns);
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
	struct datapath		*dp = of_dp_of(sw);
	int			 was_up = sw->state == OFS_UP;

	of_switch_ops.down(pd, why);
	dp->role_told[sw->ctl] = 0;
	if (was_up)
		dp->hooks.down(dp->hooks.arg, sw->ctl, why);
}

static const struct pool_ops of_dp_pool_ops = {
	of_dp_pool_up,
	of_dp_pool_down,
	"the controller",
};

/* Target k's pool: its endpoint, the bridge's source and backoff. */
static void
of_dp_pcfg_init(struct pool_config *pc, const struct datapath_spec *spec,
    unsigned k)
{
	pool_config_defaults(pc);
	pc->ep = spec->ep[k];
	pc->src = spec->src;	/* one address, or none */
	pc->backoff_min_ms = OF_DP_BACKOFF_MIN_MS;
	pc->backoff_max_ms = spec->max_backoff_ms != 0 ?
	    spec->max_backoff_ms : OF_DP_BACKOFF_MAX_MS;
	if (pc->backoff_min_ms > pc->backoff_max_ms)
		pc->backoff_min_ms = pc->backoff_max_ms;
}

static void
of_dp_sim_init(struct datapath *dp, const struct datapath_spec *spec)
{
	struct of_sim	*sim = &dp->sim;
	unsigned	 k;

	of_dp_config(&sim->cfg, spec);
	sim->pcfg_more = dp->pcfg_more;
	sim->pool_more = dp->pool_more;
	for (k = 0; k < sim->cfg.n_ctl; k++)
		of_dp_pcfg_init(of_dp_pcfg(dp, k), spec, k);
	sim->c = of_dp_c;
	/* The cluster's counters are `sbsim openflow`'s (docs/report.md):
	 * a datapath's go to the sink; its role changes are counted. */
	sim->c.role_stale = sim->c.is_slave_refused = &of_dp_sink;
	sim->c.role_status_sent = sim->c.failover_flow_mods = &of_dp_sink;
	for (k = 0; k < OF_MAX_CONTROLLERS; k++)
		sim->c.ctl_flow_mods[k] = &of_dp_sink;
	of_dp_counters_unrowed(&sim->c);
	sim->ph[OFP_CONNECT] = &of_dp_inert;
	sim->ph[OFP_PROGRAM] = &of_dp_inert;
	sim->ph[OFP_DELETE] = &of_dp_inert;
	sim->on_up = of_dp_up_hook;
	sim->sw = dp->sw;
	for (k = 0; k < sim->cfg.n_ctl; k++)
		of_switch_init(sim, 0, k);	/* its one switch */
}

/* Every target's pool over its one connection, then started. */
static int
of_dp_pools_start(struct datapath *dp, char *err, size_t errlen)
{
	unsigned	k;

	for (k = 0; k < dp->sim.cfg.n_ctl; k++)
		pool_init_array(of_dp_pool(dp, k), of_dp_pcfg(dp, k),
		    &of_dp_pool_ops, &dp->sw[k], sizeof(dp->sw[k]),
		    offsetof(struct of_switch, pd), 1);
	for (k = 0; k < dp->sim.cfg.n_ctl; k++)
		if (pool_start(of_dp_pool(dp, k), err, errlen) == -1)
			return -1;
	return 0;
}

/* The pools stopped (their counts to the run's) and the switch freed;
 * the owner, which holds the table and ports, last. */
static void
of_dp_free(struct datapath *dp, int count)
{
	unsigned	k;

	for (k = 0; k < dp->sim.cfg.n_ctl; k++) {
		pool_stop(of_dp_pool(dp, k));
		if (count) {
			*of_dp_attempts += of_dp_pool(dp, k)->stats.attempts;
			*of_dp_failures += of_dp_pool(dp, k)->stats.failures;
		}
	}
	for (k = dp->sim.cfg.n_ctl; k-- > 0; ) {
		of_switch_free(&dp->sw[k]);
		pool_free(of_dp_pool(dp, k));
	}
	free(dp);
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
	if (spec->n_ep == 0 || spec->n_ep > DATAPATH_MAX_TARGETS) {
		snprintf(err, errlen, "%u controllers", spec->n_ep);
		return NULL;
	}
	dp = xcalloc(1, sizeof(*dp));
	if (of_dp_c.rx_msgs == NULL)
		of_dp_counters_sink();
	of_dp_inert.state = PHASE_DONE;
	snprintf(dp->name, sizeof(dp->name), "%s", spec->name);
	dp->hooks = *hooks;
	of_dp_sim_init(dp, spec);
	if (of_dp_pools_start(dp, err, errlen) == -1) {
		of_dp_free(dp, 0);
		return NULL;
	}
	LIST_INSERT_HEAD(&of_dps, dp, entry);
	return dp;
}

static void
of_dp_close(struct datapath *dp)
{
	LIST_REMOVE(dp, entry);
	of_dp_free(dp, 1);
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

/* PORT_STATUS for port no to every controller of the switch. */
static void
of_dp_port_status_all(struct datapath *dp, uint32_t no, uint8_t reason)
{
	unsigned	k;

	for (k = 0; k < dp->sim.cfg.n_ctl; k++)
		of_dp_port_status(&dp->sw[k], no, reason);
}

/* The bridge's ports are 1..n now: the ports past n deleted, the new
 * ones added (config and state as a new port's: 0). */
static void
of_dp_ports(struct datapath *dp, uint32_t n)
{
	struct of_switch	*sw = &dp->sw[0];
	uint32_t		 old = dp->sim.cfg.ports, i;
	unsigned		 k;

	if (n > OF_DP_PORTS_MAX)
		n = OF_DP_PORTS_MAX;
	if (n == old)
		return;
	for (i = old; i > n; i--)
		of_dp_port_status_all(dp, i, OF_PR_DELETE);
	sw->ports = xreallocarray(sw->ports, n ? n : 1, sizeof(*sw->ports));
	if (n > old)
		memset(sw->ports + old, 0, (n - old) * sizeof(*sw->ports));
	for (k = 1; k < dp->sim.cfg.n_ctl; k++)
		dp->sw[k].ports = sw->ports;
	dp->sim.cfg.ports = n;
	for (i = old + 1; i <= n; i++)
		of_dp_port_status_all(dp, i, OF_PR_ADD);
}

/* A ROLE_REQUEST changed the controller's role (1.3 section 6.3.5):
 * the asker hears it by its name in the Controller row. */
static void
of_dp_role(struct datapath *dp, unsigned k)
{
	static const char *const names[] = {
		[OF_ROLE_EQUAL] = "other", [OF_ROLE_MASTER] = "master",
		[OF_ROLE_SLAVE] = "slave",
	};
	uint8_t	role = of_conn_role(&dp->sw[k]);

	if (dp->sw[k].state != OFS_UP || role == dp->role_told[k] ||
	    role < OF_ROLE_EQUAL || role > OF_ROLE_SLAVE)
		return;
	dp->role_told[k] = role;
	if (dp->hooks.role != NULL)
		dp->hooks.role(dp->hooks.arg, k, names[role]);
}

/* Once a second, as `sbsim openflow` does: echo and flow timeouts; and
 * roles, as vswitchd refreshes the Controller rows now and then. */
static void
of_dp_tick(uint64_t now)
{
	struct datapath	*dp;
	unsigned	 k;

	if (now - of_dp_last_sweep < 1000000000ull)
		return;
	of_dp_last_sweep = now;
	LIST_FOREACH(dp, &of_dps, entry) {
		of_switch_sweep(&dp->sim, now);
		for (k = 0; k < dp->sim.cfg.n_ctl; k++)
			of_dp_role(dp, k);
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
