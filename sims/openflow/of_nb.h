/*
 * The OpenDaylight RESTCONF northbound driver of `sbsim openflow`: flows
 * in the flow-node-inventory shape (of_nb.c), a driver for the generic
 * northbound run (src/controller/northbound.h).
 */
#ifndef SBSIM_OF_NB_H
#define SBSIM_OF_NB_H

#include "northbound.h"

extern const struct nb_driver of_nb_odl_driver;
/* Groups and meters (of_nb_gm.c): o->ctx points at 0 or 1. */
extern const struct nb_driver of_nb_odl_gm_driver;

#endif
