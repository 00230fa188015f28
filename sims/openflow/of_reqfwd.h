/*
 * REQUESTFORWARD to a switch's other controllers (of_reqfwd.c).
 */
#ifndef OF_REQFWD_H
#define OF_REQFWD_H

#include <stddef.h>
#include <stdint.h>

#include "of_sim.h"

/* enum ofp_requestforward_reason (1.4.1 A.4.6). */
#define OF_RFR_GROUP_MOD	0
#define OF_RFR_METER_MOD	1

/* msg: the whole request as the controller sent it (len bytes). */
void	 of_requestforward(struct of_switch *from, const uint8_t *msg,
	    size_t len, uint8_t reason);

#endif
