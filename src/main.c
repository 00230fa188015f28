/*
 * sbsim: one process that looks like a whole network to an SDN controller.
 * main() picks the subcommand: a protocol's, from the protocol list
 * (protocol.h), or one of the engine's.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "ctl_role.h"
#include "datapath.h"
#include "engine.h"
#include "log.h"
#include "protocol.h"
#include "run.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* The engine's own commands, after the protocols' (protocol.h). */
static const struct sbsim_cmd *const commands[] = {
	&controller_cmd,
	&demo_cmd,
	&plot_cmd,
	&merge_cmd,
	&run_cmd,
};
#define N_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

/* The command of that name: a protocol's, or the engine's; NULL: none. */
static const struct sbsim_cmd *
sbsim_cmd_find(const char *name)
{
	const struct sbsim_protocol	*p;
	size_t				 i;

	if ((p = sbsim_protocol_find(name)) != NULL)
		return p->cmd;
	for (i = 0; i < N_COMMANDS; i++)
		if (strcmp(name, commands[i]->name) == 0)
			return commands[i];
	return NULL;
}

static void
usage(FILE *f)
{
	size_t	i;

	fprintf(f, "usage: sbsim COMMAND [options]   (sbsim COMMAND --help)\n"
	    "commands:\n");
	for (i = 0; sbsim_protocols[i] != NULL; i++)
		fprintf(f, "  %-12s %s\n", sbsim_protocols[i]->cmd->name,
		    sbsim_protocols[i]->cmd->summary);
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-12s %s\n", commands[i]->name,
		    commands[i]->summary);
	fprintf(f, "  %-12s %s\n", "version", "print the version");
}

/* The devices a protocol makes of another's (datapath.h). */
static void
register_datapaths(void)
{
	size_t	i;

	for (i = 0; sbsim_protocols[i] != NULL; i++)
		if (sbsim_protocols[i]->datapath != NULL)
			datapath_register(sbsim_protocols[i]->datapath);
}

int
main(int argc, char **argv)
{
	const struct sbsim_cmd	*cmd;
	int			 rc;

	log_init("sbsim", LOG_QUIET);
	engine_signals();
	register_datapaths();
	if (argc < 2) {
		fprintf(stderr, "sbsim: missing command (see sbsim --help)\n");
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "version") == 0 ||
	    strcmp(argv[1], "--version") == 0) {
		printf("sbsim %s\n", PACKAGE_VERSION);
		return 0;
	}
	if ((cmd = sbsim_cmd_find(argv[1])) != NULL) {
		rc = cmd->main(argc - 1, argv + 1);
		run_free_sims();
		return rc;
	}
	fprintf(stderr, "sbsim: unknown command '%s' (see sbsim --help)\n",
	    argv[1]);
	return CLI_EXIT_USAGE;
}
