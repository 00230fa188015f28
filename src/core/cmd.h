/*
 * Subcommands.  The engine's own are declared here and listed in main.c;
 * a protocol's command is part of its descriptor (protocol.h), and the
 * command table takes it from the protocol list (docs/design.md, "Adding
 * a protocol").
 */
#ifndef SBSIM_CMD_H
#define SBSIM_CMD_H

struct sbsim_cmd {
	const char	*name;
	const char	*summary;
	int		(*main)(int argc, char **argv);
};

extern const struct sbsim_cmd controller_cmd;	/* src/controller/controller.c */
extern const struct sbsim_cmd demo_cmd;	/* src/run/demo.c */
extern const struct sbsim_cmd plot_cmd;	/* src/run/plot.c */
extern const struct sbsim_cmd merge_cmd;	/* src/run/merge_main.c */
extern const struct sbsim_cmd run_cmd;		/* src/run/scenario.c */

#endif
