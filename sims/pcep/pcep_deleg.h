/*
 * Which PCE a PCC's LSPs are delegated to when it holds sessions to
 * several (RFC 8231 section 5.7): the PCEs in order of precedence, the
 * first the primary.  No I/O: pcep_main.c and pcep_pcc.c feed it session
 * ups and downs and act on what it chose.
 */
#ifndef SBSIM_PCEP_DELEG_H
#define SBSIM_PCEP_DELEG_H

#include <stdint.h>

#define PCEP_MAX_PCES	4
#define PCEP_DELEG_NONE	0xff

struct pcep_deleg {
	uint8_t		 n;		/* PCEs, at most PCEP_MAX_PCES */
	uint8_t		 holder;	/* the delegate, or PCEP_DELEG_NONE */
	uint8_t		 lost;		/* the delegate whose session went */
	uint8_t		 up;		/* bit k: session k is up */
	uint64_t	 lost_ns;	/* when it went; 0: no redelegation due */
};

/* The primary (PCE 0) is the delegate from the start. */
void	pcep_deleg_init(struct pcep_deleg *, unsigned n);
/* Session k up: the delegate it was keeps (or gets back) its LSPs when
 * it returns within the Redelegation Timeout (RFC 8231 5.7.2). */
void	pcep_deleg_up(struct pcep_deleg *, unsigned k);
/* Session k down at now: 1 when it was the delegate (the redelegation
 * timer starts), else 0. */
int	pcep_deleg_down(struct pcep_deleg *, unsigned k, uint64_t now);
/* Redelegation timeout passed with no delegate: the first PCE up in
 * order of precedence becomes it; its index, or PCEP_DELEG_NONE. */
unsigned pcep_deleg_tick(struct pcep_deleg *, uint64_t now,
	    uint64_t timeout_ns);
/* 1: session k holds the delegation. */
int	pcep_deleg_is(const struct pcep_deleg *, unsigned k);

#endif
