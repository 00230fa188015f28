/*
 * Flow monitors (of_monitor.h).  The owner's flow table calls
 * of_monitor_event for each change while some connection of the switch
 * has a monitor (of_flowtable_watch); with none, nothing is watched and
 * a FLOW_MOD costs what it did.  Updates are always full
 * (ofp_flow_update_full): the specification lets a switch abbreviate a
 * controller's own changes, never obliges it to.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_actions.h"
#include "of_codec14.h"
#include "of_experimenter.h"
#include "of_monitor.h"

struct of_monitors {
	uint32_t		 n;
	struct of_monitor	 m[];		/* max_flow_monitors of them */
};

static struct of_monitor *
mon_find(struct of_monitors *ms, uint32_t id)
{
	uint32_t	i;

	for (i = 0; ms != NULL && i < ms->n; i++)
		if (ms->m[i].id == id)
			return &ms->m[i];
	return NULL;
}

/* Does monitor m select the flow (table, match covering it, outputs)? */
static int
mon_selects(const struct of_monitor *m, uint8_t version,
    const struct of_flow_info *fi)
{
	if (m->table_id != OF_TABLE_ALL && m->table_id != fi->table_id)
		return 0;
	if (m->match.len > 0 && !of_match_covers(&m->match, fi->match))
		return 0;
	return of_prog_outputs_to(version, fi->prog, fi->prog_len,
	    m->out_port) && of_prog_uses_group(version, fi->prog,
	    fi->prog_len, m->out_group);
}

static const uint16_t	event_flag[] = {
	[OF_FME_ADDED] = OF_FMF_ADD, [OF_FME_REMOVED] = OF_FMF_REMOVED,
	[OF_FME_MODIFIED] = OF_FMF_MODIFY,
};

/* One update to one connection, once however many monitors select it. */
static void
mon_tell(struct of_switch *sw, struct of_switch *origin, uint16_t event,
    const struct of_flow_info *fi)
{
	struct of_monitors	*ms = sw->monitors;
	struct of_mp_reply	 mr;
	uint32_t		 i;

	for (i = 0; ms != NULL && i < ms->n; i++) {
		if (!(ms->m[i].flags & event_flag[event]) ||
		    ((ms->m[i].flags & OF_FMF_ONLY_OWN) && origin != sw) ||
		    !mon_selects(&ms->m[i], sw->version, fi))
			continue;
		of_mp_reply_begin(&mr, of_scratch(), sw->version, 0,
		    OF_MP_FLOW_MONITOR, sw->sim->cfg.mp_max_bytes, NULL, NULL);
		of_mp_reply_add_flow_update(&mr, event, fi,
		    ms->m[i].flags & OF_FMF_INSTRUCTIONS);
		if (of_mp_reply_end(&mr) == 0)
			(*sw->sim->c.flow_updates_sent)++;
		of_switch_send(sw, mr.w);
		return;
	}
}

/* The flow table's watch: every connection of the switch hears. */
static void
of_monitor_event(void *arg, uint16_t event, const struct of_flow_info *fi)
{
	struct of_switch	*owner = arg, *sw;
	unsigned		 k;

	if (event >= sizeof(event_flag) / sizeof(event_flag[0]) ||
	    event_flag[event] == 0)
		return;
	for (k = 0; k < owner->sim->cfg.n_ctl; k++) {
		sw = of_switch_conn(owner->sim, owner->idx, k);
		if (sw->monitors != NULL && of_switch_connected(sw))
			mon_tell(sw, owner->mon_origin, event, fi);
	}
}

/* Watch the table while any connection of the switch has a monitor. */
static void
mon_watch_update(struct of_switch *sw)
{
	struct of_switch	*owner = sw->owner;
	unsigned		 k;
	int			 any = 0;

	for (k = 0; k < owner->sim->cfg.n_ctl; k++)
		any |= of_switch_conn(owner->sim, owner->idx, k)->monitors !=
		    NULL;
	if (sw->ft != NULL)
		of_flowtable_watch(sw->ft, any ? of_monitor_event : NULL,
		    any ? owner : NULL);
}

void
of_monitors_free(struct of_switch *sw)
{
	if (sw->monitors == NULL)
		return;
	free(sw->monitors);
	sw->monitors = NULL;
	mon_watch_update(sw);
}

static int
mon_add(struct of_switch *sw, const struct of_monitor *req, enum of_err *err)
{
	uint32_t	max = sw->sim->cfg.max_flow_monitors;

	if (mon_find(sw->monitors, req->id) != NULL) {
		*err = OF_ERR_MONITOR_EXISTS;
		return -1;
	}
	if (sw->monitors != NULL && sw->monitors->n >= max) {
		(*sw->sim->c.flow_monitors_refused)++;
		*err = OF_ERR_MONITOR_OUT_OF_ROOM;
		return -1;
	}
	if (sw->monitors == NULL) {
		sw->monitors = xcalloc(1, sizeof(*sw->monitors) +
		    (size_t)max * sizeof(sw->monitors->m[0]));
	}
	sw->monitors->m[sw->monitors->n++] = *req;
	mon_watch_update(sw);
	return 0;
}

static void
mon_delete(struct of_switch *sw, struct of_monitor *m)
{
	struct of_monitors	*ms = sw->monitors;

	*m = ms->m[--ms->n];
	if (ms->n == 0)
		of_monitors_free(sw);
}

/* ADD, MODIFY (replaces the filter, 1.4.1 7.3.5.19.1) or DELETE. */
static int
mon_apply(struct of_switch *sw, uint8_t command, const struct of_monitor *req,
    enum of_err *err)
{
	struct of_monitor	*m = mon_find(sw->monitors, req->id);

	if (req->table_id != OF_TABLE_ALL &&
	    req->table_id >= sw->sim->cfg.tables) {
		*err = OF_ERR_MONITOR_BAD_TABLE_ID;
		return -1;
	}
	if (command == OF_FMC_ADD)
		return mon_add(sw, req, err);
	if (m == NULL) {
		*err = OF_ERR_MONITOR_UNKNOWN;
		return -1;
	}
	if (command == OF_FMC_MODIFY)
		*m = *req;
	else
		mon_delete(sw, m);
	return 0;
}

/* The reply: with INITIAL, the flows the monitor selects now. */
static void
mon_reply(const struct of_ctx *c, const struct of_monitor *req, int initial)
{
	struct of_switch	*sw = c->sw;
	struct of_flow_filter	 f;
	struct of_mp_reply	 mr;

	of_mp_reply_for(c, &mr, OF_MP_FLOW_MONITOR);
	if (initial && sw->ft != NULL) {
		memset(&f, 0, sizeof(f));
		f.table_id = req->table_id;
		f.out_port = req->out_port;
		f.out_group = req->out_group;
		f.match = req->match;
		of_mp_reply_flows(sw, &mr, &f, clock_ns(),
		    req->flags & OF_FMF_INSTRUCTIONS);
	}
	of_mp_reply_end(&mr);
}

void
of_mp_flow_monitor(const struct of_ctx *c, struct rbuf *body)
{
	struct of_monitor	req;
	enum of_err		err = OF_ERR_NONE;
	uint8_t			command;

	if (ofp14_flow_monitor_request_decode(body, &req, &command,
	    &err) == -1 || mon_apply(c->sw, command, &req, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	mon_reply(c, &req, command != OF_FMC_DELETE &&
	    (req.flags & OF_FMF_INITIAL));
}
