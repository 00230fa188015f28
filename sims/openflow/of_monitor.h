/*
 * Flow monitors (OpenFlow 1.4.1 section 7.3.5.19, 1.5.1 7.3.5.19): a
 * controller connection asks, with an OFPMP_FLOW_MONITOR request, to be
 * told of the flows a filter selects: those there now (INITIAL, in the
 * reply), then each one added, modified or removed, as unsolicited
 * multipart replies.  Monitors belong to a connection and go with it;
 * --max-flow-monitors bounds them.
 */
#ifndef OF_MONITOR_H
#define OF_MONITOR_H

#include "buf.h"
#include "of_sim.h"

struct of_ctx;

/* The OFPMP_FLOW_MONITOR request of a 1.4 or 1.5 session. */
void	 of_mp_flow_monitor(const struct of_ctx *, struct rbuf *body);
/* The connection's monitors, when it goes down or is freed. */
void	 of_monitors_free(struct of_switch *);

#endif
