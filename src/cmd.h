/*
 * Subcommands.  A device kind adds one struct here and one line in the
 * table in main.c; the engine knows nothing else about it.
 */
#ifndef SBSIM_CMD_H
#define SBSIM_CMD_H

struct sbsim_cmd {
	const char	*name;
	const char	*summary;
	int		(*main)(int argc, char **argv);
};

extern const struct sbsim_cmd openflow_cmd;	/* sims/openflow */
extern const struct sbsim_cmd bgp_cmd;		/* sims/bgp */
extern const struct sbsim_cmd netconf_cmd;	/* sims/netconf */
extern const struct sbsim_cmd pcep_cmd;	/* sims/pcep */
extern const struct sbsim_cmd controller_cmd;	/* src/controller.c */
extern const struct sbsim_cmd demo_cmd;	/* src/demo.c */

#endif
