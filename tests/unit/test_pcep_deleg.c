/*
 * The delegation choice of a PCC with several PCEs (pcep_deleg.c): the
 * primary first, redelegation after the timeout to the first PCE up in
 * order of precedence, the old delegate back in time keeps its LSPs, back
 * too late it does not get them back, nobody up: nobody chosen.
 */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "pcep_deleg.h"

#include "check.h"

#define SEC	1000000000ull

static void
test_primary_then_next(void)
{
	struct pcep_deleg	d;

	pcep_deleg_init(&d, 3);
	pcep_deleg_up(&d, 0);
	pcep_deleg_up(&d, 1);
	pcep_deleg_up(&d, 2);
	CHECK(pcep_deleg_is(&d, 0) && !pcep_deleg_is(&d, 1),
	    "the primary is the delegate");
	CHECK(pcep_deleg_down(&d, 1, 5 * SEC) == 0 && pcep_deleg_is(&d, 0),
	    "a secondary's loss moves nothing");
	CHECK(pcep_deleg_down(&d, 0, 10 * SEC) == 1 && !pcep_deleg_is(&d, 0),
	    "the primary's loss revokes it");
	CHECK(pcep_deleg_tick(&d, 11 * SEC, 2 * SEC) == PCEP_DELEG_NONE,
	    "nothing before the redelegation timeout");
	CHECK(pcep_deleg_tick(&d, 12 * SEC, 2 * SEC) == 2 &&
	    pcep_deleg_is(&d, 2), "then the first PCE up (1 is down): 2");
	CHECK(pcep_deleg_tick(&d, 13 * SEC, 2 * SEC) == PCEP_DELEG_NONE,
	    "chosen once");
	pcep_deleg_up(&d, 0);
	pcep_deleg_up(&d, 1);
	CHECK(pcep_deleg_is(&d, 2) && !pcep_deleg_is(&d, 0),
	    "the primary back late: the LSPs stay with 2");
}

static void
test_back_in_time(void)
{
	struct pcep_deleg	d;

	pcep_deleg_init(&d, 2);
	pcep_deleg_up(&d, 0);
	pcep_deleg_up(&d, 1);
	pcep_deleg_down(&d, 0, 10 * SEC);
	pcep_deleg_up(&d, 0);
	CHECK(pcep_deleg_is(&d, 0), "back within the timeout: still 0");
	CHECK(pcep_deleg_tick(&d, 20 * SEC, SEC) == PCEP_DELEG_NONE,
	    "and no redelegation comes");
}

static void
test_zero_timeout_none_up(void)
{
	struct pcep_deleg	d;

	pcep_deleg_init(&d, 2);
	pcep_deleg_up(&d, 0);
	pcep_deleg_down(&d, 0, 0);
	CHECK(pcep_deleg_tick(&d, 0, 0) == PCEP_DELEG_NONE &&
	    !pcep_deleg_is(&d, 0) && !pcep_deleg_is(&d, 1),
	    "nobody up: nobody chosen");
	pcep_deleg_up(&d, 1);
	CHECK(pcep_deleg_tick(&d, 1, 0) == 1, "the first to come: 1");
	CHECK(pcep_deleg_down(&d, 7, 2) == 0 && pcep_deleg_is(&d, 1),
	    "an index out of range changes nothing");
	pcep_deleg_init(&d, 9);
	CHECK(d.n == PCEP_MAX_PCES, "at most %d PCEs", PCEP_MAX_PCES);
}

static const struct check_case cases[] = {
	CASE(test_primary_then_next),
	CASE(test_back_in_time),
	CASE(test_zero_timeout_none_up),
};

int
main(int argc, char **argv)
{
	log_init("test_pcep_deleg", LOG_QUIET);
	return check_run(cases, argc, argv);
}
