/*
 * The result files of CSIT's BGP tool (integration-test's
 * tools/fastbgp/play.py, --results NAME), written from sbsim's own
 * counts so that a bgpingest job can run `sbsim bgp` in play.py's place
 * and keep its plots: its suites store totals-NAME and
 * performance-NAME for the Jenkins plot plugin.
 *
 * Each file is two lines: the phases' labels, sorted and joined by
 * ", ", then their values in the same order.  A phase is written when it
 * sent at least the threshold's UPDATEs, as play.py does:
 *   "pre-fill K route(s) per UPDATE"  announce: UPDATEs sent, and
 *                                     UPDATEs per second (whole)
 *   "+1/-1 routes in two UPDATEs"     churn: one prefix withdrawn and
 *                                     announced again per pair of
 *                                     UPDATEs, as play.py's mixed mode
 * K is --per-update, or the most prefixes one UPDATE carried when the
 * peers filled each UPDATE.  The seconds are the phase's own (from its
 * trigger to its last item, docs/report.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bgp_sim.h"
#include "log.h"

#define BGPR_PHASES	2
#define BGPR_LABEL	64

struct bgpr_row {
	char		label[BGPR_LABEL];
	uint64_t	total;
	uint64_t	perf;
};

/* One phase's row, unless it is below the threshold or took no time. */
static int
bgpr_row(struct bgpr_row *r, const struct phase *ph, uint64_t updates,
    uint64_t threshold)
{
	double	secs;

	if (ph == NULL || updates == 0 || updates < threshold)
		return 0;
	if ((secs = phase_seconds(ph)) <= 0)
		return 0;
	r->total = updates;
	r->perf = (uint64_t)((double)updates / secs);
	return 1;
}

/* The rows in play.py's order (sorted labels: '+' sorts before 'p'). */
static size_t
bgpr_rows(const struct bgp_sim *sim, struct bgpr_row rows[BGPR_PHASES])
{
	const struct bgp_config	*cfg = &sim->cfg;
	size_t			 n = 0;

	if (bgpr_row(&rows[n], sim->ph[BGPP_CHURN], sim->churn_sent,
	    cfg->csit_threshold))
		snprintf(rows[n++].label, BGPR_LABEL,
		    "+1/-1 routes in two UPDATEs");
	if (bgpr_row(&rows[n], sim->ph[BGPP_ANNOUNCE], sim->ann_updates,
	    cfg->csit_threshold))
		snprintf(rows[n++].label, BGPR_LABEL,
		    "pre-fill %" PRIu32 " route(s) per UPDATE",
		    cfg->per_update ? cfg->per_update : sim->ann_most);
	return n;
}

/* DIR/KIND-BASE for NAME = DIR/BASE (play.py prefixes the whole name,
 * so it only ever writes into the current directory). */
static int
bgpr_path(char *out, size_t cap, const char *kind, const char *name)
{
	const char	*slash = strrchr(name, '/');
	int		 len;

	if (slash == NULL)
		len = snprintf(out, cap, "%s-%s", kind, name);
	else
		len = snprintf(out, cap, "%.*s/%s-%s", (int)(slash - name),
		    name, kind, slash + 1);
	return len < 0 || (size_t)len >= cap ? -1 : 0;
}

static int
bgpr_file(const char *kind, const char *name,
    const struct bgpr_row *rows, size_t n, int perf)
{
	char	 path[4096];
	FILE	*f;
	size_t	 i;
	int	 bad;

	if (bgpr_path(path, sizeof(path), kind, name) == -1) {
		log_warnx("--csit-results: %s-%s: name too long", kind, name);
		return -1;
	}
	if ((f = fopen(path, "w")) == NULL) {
		log_warn("--csit-results: %s", path);
		return -1;
	}
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", rows[i].label);
	fputc('\n', f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64, i ? ", " : "",
		    perf ? rows[i].perf : rows[i].total);
	fputc('\n', f);
	bad = ferror(f);
	if (fclose(f) == EOF || bad) {
		log_warn("--csit-results: %s", path);
		return -1;
	}
	log_info("bgp: play.py results in %s", path);
	return 0;
}

int
bgp_results_check(const char *name, char *err, size_t errlen)
{
	const char	*slash = strrchr(name, '/');
	char		 dir[4096];
	int		 len;

	if (*name == '\0' || (slash != NULL && slash[1] == '\0')) {
		snprintf(err, errlen, "--csit-results: '%s' names no file",
		    name);
		return -1;
	}
	len = slash == NULL ? snprintf(dir, sizeof(dir), ".") :
	    snprintf(dir, sizeof(dir), "%.*s", (int)(slash - name), name);
	if (len < 0 || (size_t)len >= sizeof(dir) - 64) {
		snprintf(err, errlen, "--csit-results: name too long");
		return -1;
	}
	if (len == 0)
		snprintf(dir, sizeof(dir), "/");
	if (access(dir, W_OK) == -1) {
		snprintf(err, errlen, "--csit-results: cannot write in %s: %s",
		    dir, strerror(errno));
		return -1;
	}
	return 0;
}

int
bgp_results_write(const struct bgp_sim *sim)
{
	struct bgpr_row	rows[BGPR_PHASES];
	size_t		n = bgpr_rows(sim, rows);
	const char	*name = sim->cfg.csit_results;

	if (bgpr_file("totals", name, rows, n, 0) == -1 ||
	    bgpr_file("performance", name, rows, n, 1) == -1)
		return -1;
	return 0;
}
