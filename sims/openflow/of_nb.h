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

/* A count reply (of_nb.c): 404 is 0, another status than 2xx -1, else
 * the JSON or XML document: in JSON the first member called name that
 * the taker accepts (1, with *out set; 0 passes it over), in XML what
 * the finder puts of name in *out (its return: 1 found, 0 not, -1
 * malformed). */
struct json_t;
struct _xmlNode;
typedef int (*of_nb_json_take)(struct json_t *, uint64_t *out);
typedef int (*of_nb_xml_find)(struct _xmlNode *, const char *name,
	    uint64_t *out);
int	of_nb_parse(const struct nb_opts *, int status, const char *body,
	    size_t len, uint64_t *out, of_nb_json_take, of_nb_xml_find,
	    const char *name);

#endif
