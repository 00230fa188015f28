/*
 * EXPERIMENTER dispatch: the experimenter id picks a row, the row's
 * handler reads its own exp_type (1.3.5 section 7.5.4: experimenter,
 * exp_type; 1.0's nicira_header: vendor, subtype, the same eight bytes).
 */
#include "of_bundle.h"
#include "of_experimenter.h"
#include "of_nx.h"
#include "of_sim.h"

/* Extensions add a row here (and their file to local.am). */
static const struct of_experimenter of_experimenters[] = {
	{ OF_EXP_ONF, "onf", of_onf_on_msg, NULL },
	{ OF_EXP_NICIRA, "Nicira", of_nx_on_msg, of_nx_on_mp },
	{ 0, NULL, NULL, NULL }
};

static const struct of_experimenter *
of_experimenter_find(uint32_t id)
{
	const struct of_experimenter	*e;

	for (e = of_experimenters; e->name != NULL; e++)
		if (e->id == id)
			return e;
	return NULL;
}

static void
of_experimenter_dispatch(const struct of_ctx *c, struct rbuf *r, int mp)
{
	const struct of_experimenter	*e;
	uint32_t			 id, exp_type;

	if (rbuf_get_u32(r, &id) == -1 || rbuf_get_u32(r, &exp_type) == -1) {
		of_refuse(c, OF_ERR_BAD_LEN);
		return;
	}
	e = of_experimenter_find(id);
	if (e == NULL || (mp ? e->on_mp : e->on_msg) == NULL) {
		(*c->sw->sim->c.experimenter_refused)++;
		of_refuse(c, OF_ERR_BAD_EXPERIMENTER);
		return;
	}
	if (mp)
		e->on_mp(c, exp_type, r);
	else
		e->on_msg(c, exp_type, r);
}

void
of_on_experimenter(const struct of_ctx *c)
{
	of_experimenter_dispatch(c, c->body, 0);
}

void
of_on_mp_experimenter(const struct of_ctx *c, struct rbuf *body)
{
	of_experimenter_dispatch(c, body, 1);
}
