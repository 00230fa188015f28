/*
 * Flow table vacancy events (OpenFlow 1.4.1 sections 7.3.3 and 7.4.4,
 * A.3.3 and A.4.4; 1.5.1 alike): TABLE_MOD
 * with the VACANCY_EVENTS config bit and a VACANCY property sets, per
 * table, the thresholds; the switch sends TABLE_STATUS VACANCY_DOWN when
 * the free space falls below vacancy_down and, after that, VACANCY_UP when
 * it rises above vacancy_up.  TABLE_DESC reads the configuration back.
 */
#ifndef OF_VACANCY_H
#define OF_VACANCY_H

#include "buf.h"
#include "of_sim.h"

struct of_ctx;

/* TABLE_MOD of a 1.4 or 1.5 session. */
void	 of_on_table_mod14(const struct of_ctx *);
/* The TABLE_DESC multipart (1.4 and later). */
void	 of_mp_table_desc(const struct of_ctx *);
/* The owner's flow counts changed: events where a threshold was crossed. */
void	 of_vacancy_check(struct of_switch *owner);
void	 of_vacancy_free(struct of_switch *owner);

#endif
