/*
 * The phases `sbsim ovsdb` times at its devices beside connect
 * (ovsdb_phases.c, docs/report.md):
 *   learn    devices whose manager monitors their Open_vSwitch table
 *            (target N): the manager knows them
 *   program  bridges the manager's transactions created (target
 *            N x --bridges), from the arrival of the first
 *   delete   those bridges removed again (the same target), from the
 *            arrival of the first transaction that removes one
 * Bridges of the seed (--bridges-per-node) are the device's own: neither
 * counted when they come nor when they go.
 */
#ifndef SBSIM_OVSDB_PHASES_H
#define SBSIM_OVSDB_PHASES_H

#include <stdint.h>

struct metrics;
struct ovsdb_dev;
struct ovsdb_phases;
struct ovsdb_sim;

/* learn always; program when bridges (the target) is not 0; delete
 * when the run deletes them too. */
struct ovsdb_phases *ovsdb_phases_new(struct ovsdb_sim *, struct metrics *,
	    uint64_t bridges, int deletes);
/* Once seeded: the device's own bridges noted, its server watched. */
void	 ovsdb_phases_attach(struct ovsdb_phases *, struct ovsdb_dev *);
/* Should the device's sessions peek the next read's arrival (a phase
 * waits for its first item from it)? */
int	 ovsdb_phases_peek(const struct ovsdb_phases *,
	    const struct ovsdb_dev *);
/* Every tick: program waits from connect's end, delete from program's;
 * their timeouts.  1 once every phase is over. */
int	 ovsdb_phases_tick(struct ovsdb_phases *, uint64_t now);
void	 ovsdb_phases_free(struct ovsdb_phases *);

#endif
