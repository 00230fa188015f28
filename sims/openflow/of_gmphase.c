/*
 * The switches' side of groups and meters (--expect-groups,
 * --expect-meters), as program and delete are for flows: program_groups
 * runs from the first GROUP_MOD that adds a group until the switches
 * hold N groups, delete_groups from the first removal after that until
 * they hold none; program_meters and delete_meters the same for meters
 * (docs/report.md).  Both count what the tables hold, so a MODIFY adds
 * nothing and a refused ADD nothing either.
 */
#include "log.h"
#include "metrics.h"
#include "of_nb.h"
#include "of_sim.h"
#include "run.h"

static const char *const of_gm_names[2][2] = {
	{ "program_groups", "delete_groups" },
	{ "program_meters", "delete_meters" },
};

/* The run expects the deletes: asked for, or a northbound that
 * deletes what it wrote. */
static int
of_gm_delete_expected(const struct of_sim *sim)
{
	return sim->cfg.expect_delete || (sim->cfg.nb.url != NULL &&
	    !sim->cfg.nb.no_delete);
}

void
of_gm_phases_init(struct of_sim *sim)
{
	struct phase	*prog, *del;
	int		 k;

	for (k = 0; k < 2; k++) {
		sim->total_gm[k] = 0;
		if (sim->cfg.expect_gm[k] == 0)
			continue;
		prog = sim->ph[OFP_PROGRAM_GROUPS + 2 * k] =
		    metrics_phase(sim->m, of_gm_names[k][0], "openflow");
		del = sim->ph[OFP_DELETE_GROUPS + 2 * k] =
		    metrics_phase(sim->m, of_gm_names[k][1], "openflow");
		phase_expect(prog, sim->cfg.expect_gm[k]);
		del->target = sim->cfg.expect_gm[k];
		if (of_gm_delete_expected(sim))
			phase_expect(del, sim->cfg.expect_gm[k]);
	}
}

/* A GROUP_MOD (meter: a METER_MOD) took a table from before to after
 * entries. */
void
of_gm_changed(struct of_switch *sw, int meter, uint32_t before,
    uint32_t after, uint64_t now)
{
	struct of_sim	*sim = sw->sim;
	struct phase	*prog = sim->ph[OFP_PROGRAM_GROUPS + 2 * meter];
	struct phase	*del = sim->ph[OFP_DELETE_GROUPS + 2 * meter];

	sim->total_gm[meter] += (uint64_t)after - before;
	if (prog == NULL || after == before)
		return;
	if (after > before) {
		if (prog->state == PHASE_PENDING)
			phase_start(prog, now);
		if (prog->state != PHASE_RUNNING)
			return;
		phase_items(prog, now, after - before);
		phase_latency(prog, (now - sw->up_ns) / 1000);
		return;
	}
	/* Removals count once programming is done. */
	if (prog->state != PHASE_DONE)
		return;
	if (del->state == PHASE_PENDING)
		phase_start(del, now);
	if (del->state == PHASE_RUNNING) {
		phase_items(del, now, before - after);
		phase_latency(del, (now - del->trigger_ns) / 1000);
	}
}

/* 1: the groups' and meters' phases are over (those not asked for
 * are). */
int
of_gm_tick(struct of_sim *sim, uint64_t now)
{
	struct phase	*prog, *del;
	int		 k, over = 1;

	for (k = 0; k < 2; k++) {
		prog = sim->ph[OFP_PROGRAM_GROUPS + 2 * k];
		del = sim->ph[OFP_DELETE_GROUPS + 2 * k];
		if (prog == NULL)
			continue;
		if (prog->state == PHASE_RUNNING &&
		    sim->total_gm[k] >= sim->cfg.expect_gm[k])
			phase_end(prog, now, PHASE_DONE);
		of_never_began(prog, sim->ph[OFP_CONNECT], now,
		    sim->phase_timeout);
		run_phase_timeout(prog, now, sim->phase_timeout);
		if (del->state == PHASE_RUNNING && sim->total_gm[k] == 0)
			phase_end(del, now, PHASE_DONE);
		run_phase_timeout(del, now, sim->phase_timeout);
		over = over && phase_over(prog) &&
		    del->state != PHASE_RUNNING &&
		    (!of_gm_delete_expected(sim) || phase_over(del) ||
		    prog->state != PHASE_DONE);
	}
	return over;
}

/* ---- --northbound: the groups and meters pushed through it ---- */

static const int of_gm_kinds[2] = { 0, 1 };
static const char *const of_gm_nb_names[2][4] = {
	{ "nb_program_groups", "confirm_groups", "nb_delete_groups",
	  "confirm_delete_groups" },
	{ "nb_program_meters", "confirm_meters", "nb_delete_meters",
	  "confirm_delete_meters" },
};

/* The switches' side of program (delete) is timed from the first add
 * (delete) request, as the flows' is. */
static void
of_gm_nb_hook(struct of_sim *sim, int k, int deleting, uint64_t now)
{
	struct phase	*ph = sim->ph[OFP_PROGRAM_GROUPS + 2 * k + deleting];

	if (ph != NULL && ph->state == PHASE_PENDING)
		phase_start(ph, now);
}

static void
of_gm_nb_hook_groups(void *arg, int deleting, uint64_t now)
{
	of_gm_nb_hook(arg, 0, deleting, now);
}

static void
of_gm_nb_hook_meters(void *arg, int deleting, uint64_t now)
{
	of_gm_nb_hook(arg, 1, deleting, now);
}

/* One sequence of the northbound driver per kind asked for, one item
 * per request, over the flows' nodes and options. */
void
of_gm_nb_new(struct of_sim *sim)
{
	struct nb_opts	o;
	int		k;

	for (k = 0; k < 2; k++) {
		if (sim->cfg.nb_gm[k] == 0)
			continue;
		o = sim->cfg.nb;
		o.driver = &of_nb_odl_gm_driver;
		o.ctx = &of_gm_kinds[k];
		o.flows = (uint64_t)sim->cfg.nb_gm[k] * sim->cfg.switches;
		o.flow_base = 0;
		o.per_request = 1;
		o.program_name = of_gm_nb_names[k][0];
		o.confirm_name = of_gm_nb_names[k][1];
		o.delete_name = of_gm_nb_names[k][2];
		o.confirm_delete_name = of_gm_nb_names[k][3];
		sim->nb_gm[k] = nb_new(&o, sim->m, sim->nb_nodes,
		    sim->cfg.switches, k ? of_gm_nb_hook_meters :
		    of_gm_nb_hook_groups, sim);
	}
}

int
of_gm_nb_begin(struct of_sim *sim, uint64_t now)
{
	int	k;

	for (k = 0; k < 2; k++)
		if (sim->nb_gm[k] != NULL &&
		    nb_begin_logged(sim->nb_gm[k], now) == -1)
			return -1;
	return 0;
}

/* 1: every sequence is over. */
int
of_gm_nb_tick(struct of_sim *sim, uint64_t now)
{
	int	k, over = 1;

	for (k = 0; k < 2; k++)
		if (sim->nb_gm[k] != NULL && !nb_tick(sim->nb_gm[k], now))
			over = 0;
	return over;
}

void
of_gm_nb_free(struct of_sim *sim)
{
	int	k;

	for (k = 0; k < 2; k++) {
		if (sim->nb_gm[k] != NULL)
			nb_free(sim->nb_gm[k]);
		sim->nb_gm[k] = NULL;
	}
}
