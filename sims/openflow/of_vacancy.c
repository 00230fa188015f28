/*
 * Vacancy events (of_vacancy.h).  A switch holds thresholds only once a
 * TABLE_MOD turned events on (owner->vacancy, one entry per table), so
 * a switch without them pays one NULL test per flow count change.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_codec14.h"
#include "of_experimenter.h"
#include "of_vacancy.h"
#include "ofp14.h"

struct of_vacancy {
	uint8_t	on;
	uint8_t	down, up;
	uint8_t	armed;		/* the reason the next event may have */
};

/* Free space of table t in percent of --table-size. */
static uint8_t
vacancy_pct(const struct of_switch *owner, uint8_t t)
{
	uint32_t	max = owner->sim->cfg.table_size;
	uint32_t	n = owner->ft != NULL ? of_flowtable_count(owner->ft, t) :
			    0;

	if (n >= max)
		return 0;
	return (uint8_t)((uint64_t)(max - n) * 100 / max);
}

static void
table_desc(const struct of_switch *owner, uint8_t t, struct of_table_desc *td)
{
	const struct of_vacancy	*v = owner->vacancy != NULL ?
				    &owner->vacancy[t] : NULL;

	memset(td, 0, sizeof(*td));
	td->table_id = t;
	if (v == NULL || !v->on)
		return;
	td->config = OFP14_TC_VACANCY_EVENTS;
	td->down = v->down;
	td->up = v->up;
	td->vacancy = vacancy_pct(owner, t);
}

/* TABLE_STATUS to every connection whose async config takes it. */
static void
vacancy_tell(struct of_switch *owner, uint8_t t, uint8_t reason)
{
	struct of_table_desc	 td;
	struct of_switch	*sw;
	struct wbuf		*w;
	unsigned		 k;

	table_desc(owner, t, &td);
	for (k = 0; k < owner->sim->cfg.n_ctl; k++) {
		sw = of_switch_conn(owner->sim, owner->idx, k);
		if (!of_switch_connected(sw) || sw->version < OF_VERSION_14 ||
		    !(sw->async.table_status[of_conn_role(sw) ==
		    OF_ROLE_SLAVE] & (1u << reason)))
			continue;
		w = of_scratch();
		ofp14_table_status_encode(w, sw->version, reason, &td);
		of_switch_send(sw, w);
		(*sw->sim->c.table_status_sent)++;
	}
}

void
of_vacancy_check(struct of_switch *owner)
{
	struct of_vacancy	*v;
	uint8_t			 t, pct;

	for (t = 0; t < owner->sim->cfg.tables; t++) {
		v = &owner->vacancy[t];
		if (!v->on)
			continue;
		pct = vacancy_pct(owner, t);
		if (v->armed == OFP14_TR_VACANCY_DOWN && pct < v->down) {
			v->armed = OFP14_TR_VACANCY_UP;
			vacancy_tell(owner, t, OFP14_TR_VACANCY_DOWN);
		} else if (v->armed == OFP14_TR_VACANCY_UP && pct > v->up) {
			v->armed = OFP14_TR_VACANCY_DOWN;
			vacancy_tell(owner, t, OFP14_TR_VACANCY_UP);
		}
	}
}

/* Events on: armed for the crossing that can come next from here. */
static void
vacancy_set(struct of_switch *owner, uint8_t t,
    const struct of_table_mod14 *tm)
{
	struct of_vacancy	*v = &owner->vacancy[t];

	v->on = (tm->config & OFP14_TC_VACANCY_EVENTS) != 0;
	v->down = tm->down;
	v->up = tm->up;
	v->armed = vacancy_pct(owner, t) < v->down ? OFP14_TR_VACANCY_UP :
	    OFP14_TR_VACANCY_DOWN;
}

void
of_on_table_mod14(const struct of_ctx *c)
{
	struct of_switch	*owner = c->sw->owner;
	struct of_table_mod14	 tm;
	enum of_err		 err = OF_ERR_NONE;
	unsigned		 t, n = owner->sim->cfg.tables;

	if (of_slave_refuse(c))
		return;
	if (ofp14_table_mod_decode(c->body, &tm, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	if (tm.table_id != OF_TABLE_ALL && tm.table_id >= n) {
		of_refuse(c, OF_ERR_TABLE_MOD_BAD_TABLE);
		return;
	}
	if (owner->vacancy == NULL) {
		if (!(tm.config & OFP14_TC_VACANCY_EVENTS))
			return;		/* off, as every table already is */
		owner->vacancy = xcalloc(n, sizeof(*owner->vacancy));
	}
	for (t = 0; t < n; t++)
		if (tm.table_id == OF_TABLE_ALL || tm.table_id == t)
			vacancy_set(owner, (uint8_t)t, &tm);
}

static void
table_desc_add(struct of_switch *sw, struct of_mp_reply *mr, uint8_t t)
{
	struct of_table_desc	td;

	table_desc(sw->owner, t, &td);
	of_mp_reply_add_table_desc(mr, &td);
}

void
of_mp_table_desc(const struct of_ctx *c)
{
	of_mp_reply_tables(c, OF_MP_TABLE_DESC, table_desc_add);
}

void
of_vacancy_free(struct of_switch *owner)
{
	free(owner->vacancy);
	owner->vacancy = NULL;
}
