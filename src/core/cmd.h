/*
 * Subcommands and controller roles.  A protocol adds its command here and
 * one line in the command table in main.c, its controller role here and
 * one line in the role table there; the engine knows nothing else about
 * it (docs/design.md, "Adding a protocol").
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
extern const struct sbsim_cmd ovsdb_cmd;	/* sims/ovsdb */
extern const struct sbsim_cmd controller_cmd;	/* src/controller/controller.c */
extern const struct sbsim_cmd demo_cmd;	/* src/run/demo.c */
extern const struct sbsim_cmd plot_cmd;	/* src/run/plot.c */
extern const struct sbsim_cmd merge_cmd;	/* src/run/merge_main.c */
extern const struct sbsim_cmd run_cmd;		/* src/run/scenario.c */

/* The command of that name (main.c's table), or NULL. */
const struct sbsim_cmd *sbsim_cmd_find(const char *name);

struct ctl_role;
extern const struct ctl_role of_ctl_role;	/* sims/openflow/of_role.c */
extern const struct ctl_role of_inventory_role;	/* sims/openflow/of_role.c */
extern const struct ctl_role bgp_ctl_role;	/* sims/bgp/bgp_role.c */
extern const struct ctl_role pcep_ctl_role;	/* sims/pcep/pcep_role.c */
extern const struct ctl_role nc_ctl_role;	/* sims/netconf/nc_role.c */
extern const struct ctl_role ovsdb_ctl_role;	/* sims/ovsdb/ovsdb_role.c */

/* The switches an OVSDB bridge with a controller becomes (datapath.h). */
struct datapath_provider;
extern const struct datapath_provider of_datapath;	/* of_datapath.c */

#endif
