/*
 * The BGP speaker's RIBs over RESTCONF (OpenDaylight's bgp-rib shapes):
 * loc-rib and each peer's adj-rib-in to read, the application RIB to
 * write routes the speaker advertises.
 */
#ifndef SBSIM_BGP_RESTCONF_H
#define SBSIM_BGP_RESTCONF_H

#include <stdint.h>

struct doc_writer;

void	bgp_restconf_register(void);
/* A table entry of a bgp-rib shaped RIB (also the BMP monitor's): its
 * afi, safi and attributes; then the family's routes container and list
 * opened (bgp-inet's), the routes for the caller to write and close. */
void	bgp_rc_table_head(struct doc_writer *, uint8_t af);
void	bgp_rc_routes_open(struct doc_writer *, uint8_t af);

#endif
