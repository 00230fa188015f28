/*
 * Action lists (both versions) and instruction lists (1.3): validation on
 * FLOW_MOD / PACKET_OUT, and the queries the flow table needs for the
 * out_port / out_group filters (OpenFlow 1.3 section 7.3.4.2).
 * "prog" below is the raw wire bytes: instructions for 1.3 flows, actions
 * for 1.0 flows and for PACKET_OUT of either version.
 */
#ifndef SBSIM_OF_ACTIONS_H
#define SBSIM_OF_ACTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "of_types.h"

/* Port numbers in 32-bit form; 1.0's 16-bit ports are widened. */
#define OF_PORT_MAX		0xffffff00u
#define OF_PORT_IN_PORT		0xfffffff8u
#define OF_PORT_TABLE		0xfffffff9u
#define OF_PORT_NORMAL		0xfffffffau
#define OF_PORT_FLOOD		0xfffffffbu
#define OF_PORT_ALL		0xfffffffcu
#define OF_PORT_CONTROLLER	0xfffffffdu
#define OF_PORT_LOCAL		0xfffffffeu
#define OF_PORT_ANY		0xffffffffu	/* OFPP_NONE in 1.0 */
#define OF_GROUP_ANY		0xffffffffu
#define OF_GROUP_ALL		0xfffffffcu	/* as a filter: any group */

uint32_t of_port_widen10(uint16_t);	/* 1.0 port number to 32-bit form */
uint16_t of_port_narrow10(uint32_t);

/*
 * Check an action list: known types, lengths that are multiples of 8 and
 * inside the list, output ports that exist (1..n_ports or a reserved port).
 */
int	 of_actions_validate(uint8_t version, const uint8_t *, size_t,
	    uint32_t n_ports, enum of_err *err);
/* Check a 1.3 instruction list (and the action lists inside it). */
int	 of_instructions_validate(const uint8_t *, size_t, uint8_t table_id,
	    uint8_t n_tables, uint32_t n_ports, enum of_err *err);
/* The same, and (check_groups) every GROUP action names a group of
 * groups (NULL: the switch has none yet), else BAD_OUT_GROUP. */
struct of_groups;
int	 of_instructions_check(const uint8_t *, size_t, uint8_t table_id,
	    uint8_t n_tables, uint32_t n_ports, int check_groups,
	    const struct of_groups *groups, enum of_err *err);
/* The same for a flow of version (1.5: METER actions, no METER
 * instruction; 1.5.1 sections 7.2.4-5). */
int	 of_instructions_check_ver(uint8_t version, const uint8_t *, size_t,
	    uint8_t table_id, uint8_t n_tables, uint32_t n_ports,
	    int check_groups, const struct of_groups *groups, enum of_err *err);
/* Output ports named by an action list, at most max; -1 if malformed. */
int	 of_actions_output_ports(uint8_t version, const uint8_t *, size_t,
	    uint32_t *ports, size_t max);
/* Filters for flow stats and delete (prog as stored in the flow). */
int	 of_prog_outputs_to(uint8_t version, const uint8_t *, size_t,
	    uint32_t port);
int	 of_prog_uses_group(uint8_t version, const uint8_t *, size_t,
	    uint32_t group);
/* fn(arg, id) for each GROUP action of a 1.3 program (a flow's). */
void	 of_prog_each_group(const uint8_t *, size_t,
	    void (*fn)(void *, uint32_t), void *arg);
/* The meter a flow program's METER instruction (1.3, 1.4; at most one,
 * 1.3.5 section 7.2.4) or first 1.5 METER action names: 1 and
 * *meter_id, or 0 when it names none. */
int	 of_prog_meter(const uint8_t *, size_t, uint32_t *meter_id);
/* fn(arg, id) for each meter a flow program names, in order, until fn
 * answers 1 (then 1; else 0). */
int	 of_prog_each_meter(const uint8_t *, size_t,
	    int (*fn)(void *, uint32_t), void *arg);
/* Write a flow's program (instructions) as a session of version reads
 * it: its meter as 1.5's METER action or 1.3's instruction, converted
 * when the flow was set in the other form (of_meter15.c). */
struct wbuf;
void	 of_prog_put(struct wbuf *, uint8_t version, const uint8_t *prog,
	    size_t len);

#endif
