/*
 * Live figures in the Prometheus text format (promexp.h).  Names follow
 * Prometheus's conventions: sbsim_ prefix, a phase's figures labelled by
 * phase and protocol, the latency a summary with quantiles in seconds.
 */
#include <sys/types.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "cost.h"
#include "http_server.h"
#include "log.h"
#include "merge.h"
#include "metrics.h"
#include "pool.h"
#include "promexp.h"

struct promexp {
	struct http_server	*hs;
	struct metrics		*m;
	promexp_source_fn	 source;	/* NULL: this process's m */
	void			*source_arg;
	char			 addr[256];
};

/* A label value: backslash, quote and newline escaped (the text format,
 * "Comments, help text, and type information"). */
static void
prom_label(struct evbuffer *out, const char *v)
{
	for (; *v != '\0'; v++) {
		if (*v == '\\' || *v == '"')
			evbuffer_add_printf(out, "\\%c", *v);
		else if (*v == '\n')
			evbuffer_add(out, "\\n", 2);
		else
			evbuffer_add(out, v, 1);
	}
}

/* The head of a metric family. */
static void
prom_family(struct evbuffer *out, const char *name, const char *type,
    const char *help)
{
	evbuffer_add_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help,
	    name, type);
}

static void
prom_phase_sample(struct evbuffer *out, const char *name,
    const struct phase *ph, const char *extra, double v)
{
	evbuffer_add_printf(out, "%s{phase=\"", name);
	prom_label(out, ph->name);
	evbuffer_add(out, "\",protocol=\"", 12);
	prom_label(out, ph->protocol);
	evbuffer_add_printf(out, "\"%s} %.17g\n", extra, v);
}

static void
prom_phase_gauge(struct evbuffer *out, const struct metrics *m,
    const char *name, const char *type, const char *help,
    double (*value)(const struct phase *))
{
	size_t	i;

	prom_family(out, name, type, help);
	for (i = 0; i < m->n_phases; i++)
		prom_phase_sample(out, name, m->phases[i], "",
		    value(m->phases[i]));
}

static double prom_items(const struct phase *ph) { return (double)ph->items; }
static double prom_target(const struct phase *ph)
{
	return (double)ph->target;
}
static double prom_running(const struct phase *ph)
{
	return ph->state == PHASE_RUNNING;
}
static double prom_done(const struct phase *ph)
{
	return ph->state == PHASE_DONE;
}
static double prom_timeout(const struct phase *ph)
{
	return ph->state == PHASE_TIMEOUT;
}

static void
prom_latency(struct evbuffer *out, const struct metrics *m)
{
	static const double	 q[] = { 0.5, 0.9, 0.99 };
	const struct phase	*ph;
	char			 extra[32];
	size_t			 i, k;

	prom_family(out, "sbsim_phase_latency_seconds", "summary",
	    "latency of the phase's items");
	for (i = 0; i < m->n_phases; i++) {
		ph = m->phases[i];
		for (k = 0; k < nitems(q); k++) {
			snprintf(extra, sizeof(extra), ",quantile=\"%g\"", q[k]);
			prom_phase_sample(out, "sbsim_phase_latency_seconds", ph,
			    extra, (double)hist_percentile(&ph->latency,
			    q[k] * 100) / 1e6);
		}
		prom_phase_sample(out, "sbsim_phase_latency_seconds_sum", ph,
		    "", (double)ph->latency.sum / 1e6);
		prom_phase_sample(out, "sbsim_phase_latency_seconds_count", ph,
		    "", (double)ph->latency.count);
	}
}

/*
 * The report's counters, each a family of its own (Prometheus's "Metric
 * and label naming"): a counter a sum of events, SBSIM_NAME_total; a
 * peak, a flag or what one monitor holds (those merge_counter_is_max()
 * does not add up) a gauge; a unit in the name in base units (_ms,
 * _us, _ns as _seconds, _kb as _bytes), so that promtool check metrics
 * is silent.  A scenario group's "GROUP.name" is name with a group
 * label, its groups' samples together under one head.
 */
struct prom_ctr {
	char		 fam[160];	/* the family's name */
	const char	*name;		/* the report's, for the help */
	const char	*group;		/* the scenario group, or NULL */
	int		 glen;
	int		 counter;
	double		 scale;		/* to the base unit */
	uint64_t	 value;
};

/* Unit suffixes of counter names and their base units. */
static const struct {
	const char	*suffix;
	const char	*base;
	double		 scale;
} prom_units[] = {
	{ "_ms", "_seconds", 1e-3 }, { "_us", "_seconds", 1e-6 },
	{ "_ns", "_seconds", 1e-9 }, { "_s", "_seconds", 1 },
	{ "_kb", "_bytes", 1024 },
};

/* c's family name from base (the name without its group): sbsim_, the
 * name in [a-zA-Z0-9_] without a leading sbsim_, its unit a base one. */
static void
prom_ctr_family(struct prom_ctr *c, const char *base)
{
	char	 name[128], *p;
	size_t	 len, i, sl;

	if (strncmp(base, "sbsim_", 6) == 0)
		base += 6;
	snprintf(name, sizeof(name), "%s", base);
	for (p = name; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p))
			*p = '_';
	len = strlen(name);
	c->scale = 1;
	for (i = 0; i < nitems(prom_units); i++) {
		sl = strlen(prom_units[i].suffix);
		if (len > sl && strcmp(name + len - sl,
		    prom_units[i].suffix) == 0) {
			snprintf(name + len - sl, sizeof(name) - (len - sl),
			    "%s", prom_units[i].base);
			c->scale = prom_units[i].scale;
			break;
		}
	}
	len = strlen(name);
	snprintf(c->fam, sizeof(c->fam), "sbsim_%s%s", name, c->counter &&
	    (len < 6 || strcmp(name + len - 6, "_total") != 0) ? "_total" :
	    "");
}

static int
prom_ctr_cmp(const void *a, const void *b)
{
	const struct prom_ctr	*x = a, *y = b;
	int			 d = strcmp(x->fam, y->fam);

	if (d == 0 && x->group != NULL && y->group != NULL)
		d = strncmp(x->group, y->group, (size_t)(x->glen < y->glen ?
		    y->glen : x->glen));
	return d;
}

static void
prom_ctr_sample(struct evbuffer *out, const struct prom_ctr *c)
{
	char	group[128];

	evbuffer_add(out, c->fam, strlen(c->fam));
	if (c->group != NULL) {
		snprintf(group, sizeof(group), "%.*s", c->glen, c->group);
		evbuffer_add(out, "{group=\"", 8);
		prom_label(out, group);
		evbuffer_add(out, "\"}", 2);
	}
	if (c->scale == 1)
		evbuffer_add_printf(out, " %llu\n",
		    (unsigned long long)c->value);
	else
		evbuffer_add_printf(out, " %.17g\n", (double)c->value *
		    c->scale);
}

static void
prom_counters(struct evbuffer *out, const struct metrics *m)
{
	struct prom_ctr	*cs, *c;
	const char	*name, *dot;
	char		 help[256];
	size_t		 i;

	if (m->n_counters == 0)
		return;
	cs = xcalloc(m->n_counters, sizeof(*cs));
	for (i = 0; i < m->n_counters; i++) {
		c = &cs[i];
		c->name = name = m->counters[i].name;
		if ((dot = strrchr(name, '.')) != NULL) {
			c->group = name;
			c->glen = (int)(dot - name);
			name = dot + 1;
		}
		c->counter = !merge_counter_is_max(name);
		c->value = m->counters[i].value;
		prom_ctr_family(c, name);
	}
	/* A family's samples together, under one head. */
	qsort(cs, m->n_counters, sizeof(*cs), prom_ctr_cmp);
	for (i = 0; i < m->n_counters; i++) {
		c = &cs[i];
		if (i == 0 || strcmp(c->fam, cs[i - 1].fam) != 0) {
			snprintf(help, sizeof(help), "the report's counter %s "
			    "(docs/report.md)", c->group != NULL ?
			    c->name + c->glen + 1 : c->name);
			prom_family(out, c->fam, c->counter ? "counter" :
			    "gauge", help);
		}
		prom_ctr_sample(out, c);
	}
	free(cs);
}

void
promexp_write_devices(struct evbuffer *out, const uint64_t n[PD_STOPPED + 1])
{
	int	st;

	prom_family(out, "sbsim_devices", "gauge",
	    "devices by connection state");
	for (st = PD_IDLE; st <= PD_STOPPED; st++)
		evbuffer_add_printf(out, "sbsim_devices{state=\"%s\"} %llu\n",
		    pool_state_name(st), (unsigned long long)n[st]);
}

void
promexp_write_self(struct evbuffer *out, const struct cost_snap *s)
{
	prom_family(out, "sbsim_process_cpu_seconds_total", "counter",
	    "sbsim's CPU time, user and system");
	evbuffer_add_printf(out, "sbsim_process_cpu_seconds_total %.3f\n",
	    (double)s->cpu_ms / 1000);
	prom_family(out, "sbsim_process_resident_memory_bytes", "gauge",
	    "sbsim's resident memory");
	evbuffer_add_printf(out, "sbsim_process_resident_memory_bytes %llu\n",
	    (unsigned long long)s->rss_kb * 1024);
}

void
promexp_write(struct evbuffer *out, const struct metrics *m)
{
	uint64_t		n[PD_STOPPED + 1];
	struct cost_snap	s;

	pool_count_states(n);
	promexp_write_devices(out, n);
	if (cost_read_self(&s) == 0)
		promexp_write_self(out, &s);
	promexp_write_run(out, m);
}

void
promexp_write_run(struct evbuffer *out, const struct metrics *m)
{
	if (m == NULL)
		return;
	prom_phase_gauge(out, m, "sbsim_phase_items", "gauge",
	    "items the phase counted so far", prom_items);
	prom_phase_gauge(out, m, "sbsim_phase_target", "gauge",
	    "items the phase waits for (0: unknown)", prom_target);
	prom_phase_gauge(out, m, "sbsim_phase_running", "gauge",
	    "1 while the phase runs", prom_running);
	prom_phase_gauge(out, m, "sbsim_phase_done", "gauge",
	    "1 once the phase reached its target", prom_done);
	prom_phase_gauge(out, m, "sbsim_phase_timed_out", "gauge",
	    "1 once the phase timed out", prom_timeout);
	prom_phase_gauge(out, m, "sbsim_phase_rate_per_second", "gauge",
	    "items per second from the phase's start to its last item",
	    phase_rate);
	prom_latency(out, m);
	prom_counters(out, m);
}

static void
promexp_serve(struct http_req *req, void *arg)
{
	struct promexp	*pe = arg;
	struct evbuffer	*body = evbuffer_new();

	if (body == NULL)
		fatalx("evbuffer_new");
	if (pe->source != NULL)
		pe->source(body, pe->source_arg);
	else
		promexp_write(body, pe->m);
	req->reply_type = "text/plain; version=0.0.4; charset=utf-8";
	http_reply(req, 200, body);
	evbuffer_free(body);
}

struct promexp *
promexp_new(struct event_base *base, const char *arg, char *err,
    size_t errlen)
{
	struct promexp			*pe = xcalloc(1, sizeof(*pe));
	struct http_server_config	 c;

	http_server_config_defaults(&c);
	if (http_listen_parse("--metrics-listen", arg, pe->addr,
	    sizeof(pe->addr), &c.port, err, errlen) == -1) {
		free(pe);
		return NULL;
	}
	c.address = pe->addr[0] != '\0' ? pe->addr : NULL;
	c.user = c.password = NULL;
	c.name = "metrics";
	c.realm = "sbsim";
	c.max_conns_opt = NULL;		/* a fixed cap: no option sets it */
	if ((pe->hs = http_server_new(base, &c, err, errlen)) == NULL) {
		free(pe);
		return NULL;
	}
	http_server_route(pe->hs, "/metrics", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD,
	    promexp_serve, pe);
	return pe;
}

void
promexp_set_source(struct promexp *pe, promexp_source_fn fn, void *arg)
{
	pe->source = fn;
	pe->source_arg = arg;
}

void
promexp_set_run(struct promexp *pe, struct metrics *m)
{
	if (pe != NULL)
		pe->m = m;
}

void
promexp_free(struct promexp *pe)
{
	if (pe == NULL)
		return;
	http_server_free(pe->hs);
	free(pe);
}
