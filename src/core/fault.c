/*
 * Injected faults: the schedules, the generators, the counters, the
 * reconnect phases and the output holds of delay (fault.h).  One run's
 * faults at a time (a process runs one run, or one scenario, at once),
 * in up to FAULT_MAX_SETS sets: a run's one, or one per scenario group.
 */
#include <sys/queue.h>
#include <sys/socket.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "engine.h"
#include "fault.h"
#include "log.h"
#include "metrics.h"
#include "pool.h"

#define FAULT_RATE_MAX		1e6	/* per second */
#define FAULT_TIME_MAX		1e7	/* seconds from the start */
#define FAULT_COUNTER_MAX	(FAULT_KIND_MAX + 16)
#define FAULT_MAX_SETS		16	/* a scenario's groups */

struct fault_set;

/* One armed spec. */
struct fault_arm {
	struct fault_set	*set;
	const struct fault_spec	*spec;
	const struct fault_kind	*kind;
	struct event		*ev;
	size_t			 next_at;	/* index into spec->at */
	uint64_t		*count;
	uint64_t		*missed;
	/* Counter names live as long as the process's reports need them:
	 * this array is static. */
	char			 name[FAULT_COUNTER_MAX];
	char			 name_missed[FAULT_COUNTER_MAX];
};

/*
 * One set of schedules: a lone run's, or one scenario group's, with its
 * own device configuration, metrics scope (GROUP.fault_drop), generator
 * and reconnect phase.  The sets are static, as the counter names in
 * their arms must be.
 */
struct fault_set {
	struct fault_arm	 arm[FAULT_MAX_SPECS];
	size_t			 n;
	void			*cfg;
	struct metrics		*m;
	const char		*protocol;
	uint64_t		 start_ns;
	uint64_t		 rng;
	uint64_t		 outstanding;	/* dropped, not back up */
	uint64_t		 last_drop_ns;
	struct phase		*reconnect;
};

static struct fault_set	 fault_sets[FAULT_MAX_SETS];
static size_t		 fault_n_sets;
/* The set whose fault is being injected: a kind's handler tells the
 * engine of a drop through fault_dev_dropped(), which counts it there. */
static struct fault_set	*fault_firing;

/* What a delay holds: one device's output, until its timer. */
struct fault_hold {
	LIST_ENTRY(fault_hold)	 entry;
	struct pool_dev		*dev;
	struct event		*ev;
	uint64_t		*bytes;		/* fault_delay_bytes */
};
static LIST_HEAD(, fault_hold) fault_holds =
    LIST_HEAD_INITIALIZER(fault_holds);

/* What the pool tells of the devices faults act on (pool.h): set before
 * the first drop or delay, the only ways a device gets a fault_ns or a
 * fault_hold for the pool to report on. */
static void	fault_dev_closing(struct pool_dev *);
static const struct pool_watch	fault_watch = {
	.up = fault_dev_up,
	.closing = fault_dev_closing,
};

/* splitmix64: a generator of the set's own, so that faults do not shift
 * the devices' random() (backoff jitter) and a seed gives one schedule. */
static uint64_t
fault_rand(struct fault_set *fs)
{
	uint64_t	z = (fs->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* In [0, 1). */
static double
fault_uniform(struct fault_set *fs)
{
	return (double)(fault_rand(fs) >> 11) / 9007199254740992.0;
}

static int
fault_parse_times(const char *p, struct fault_spec *s, char **end,
    char *err, size_t errlen)
{
	double	v;

	for (;;) {
		errno = 0;
		v = strtod(p, end);
		if (*end == p || errno != 0 || !(v >= 0) ||
		    v > FAULT_TIME_MAX ||
		    (s->n_at > 0 && v < s->at[s->n_at - 1])) {
			snprintf(err, errlen, "--fault %s: expected times in "
			    "seconds from the start, ascending, after '@'",
			    s->text);
			return -1;
		}
		if (s->n_at == FAULT_MAX_TIMES) {
			snprintf(err, errlen, "--fault %s: at most %d times",
			    s->text, FAULT_MAX_TIMES);
			return -1;
		}
		s->at[s->n_at++] = v;
		if (**end != ',')
			return 0;
		p = *end + 1;
	}
}

static int
fault_parse_when(const char *p, struct fault_spec *s, char **end,
    char *err, size_t errlen)
{
	if (*p == '@')
		return fault_parse_times(p + 1, s, end, err, errlen);
	if (*p == ':') {
		errno = 0;
		s->rate = strtod(p + 1, end);
		if (*end != p + 1 && errno == 0 && s->rate > 0 &&
		    s->rate <= FAULT_RATE_MAX)
			return 0;
		snprintf(err, errlen, "--fault %s: expected a rate per second "
		    "after ':' (above 0, at most %.0f)", s->text,
		    FAULT_RATE_MAX);
		return -1;
	}
	snprintf(err, errlen, "--fault %s: expected KIND:RATE or "
	    "KIND@T1,T2,... (with /ARG after either)", s->text);
	return -1;
}

int
fault_parse(const char *arg, struct fault_spec *s, char *err, size_t errlen)
{
	const char	*p = arg;
	char		*end;
	unsigned long	 v;
	size_t		 n;

	memset(s, 0, sizeof(*s));
	s->text = arg;
	for (n = 0; islower((unsigned char)p[n]) || p[n] == '-'; n++)
		;
	if (n == 0 || n >= sizeof(s->kind)) {
		snprintf(err, errlen, "--fault %s: expected a kind (lower "
		    "case letters and '-') first", arg);
		return -1;
	}
	memcpy(s->kind, p, n);
	if (fault_parse_when(p + n, s, &end, err, errlen) == -1)
		return -1;
	if (*end == '\0')
		return 0;
	if (*end == '/' && isdigit((unsigned char)end[1])) {
		errno = 0;
		v = strtoul(end + 1, &end, 10);
		if (*end == '\0' && errno == 0 && v <= UINT32_MAX) {
			s->has_arg = 1;
			s->arg = (uint32_t)v;
			return 0;
		}
	}
	snprintf(err, errlen, "--fault %s: expected '/ARG' (a whole number) "
	    "or nothing after the schedule", arg);
	return -1;
}

static const struct fault_kind *
fault_find(const struct fault_kind *kinds, const char *name)
{
	for (; kinds != NULL && kinds->name != NULL; kinds++)
		if (strcmp(kinds->name, name) == 0)
			return kinds;
	return NULL;
}

static void
fault_kind_list(const struct fault_kind *kinds, char *out, size_t len)
{
	size_t	used;

	snprintf(out, len, "%s", kinds == NULL || kinds->name == NULL ?
	    "this command has none" : "one of");
	for (; kinds != NULL && kinds->name != NULL; kinds++) {
		used = strlen(out);
		snprintf(out + used, len - used, " %s%s%s", kinds->name,
		    kinds->arg_meta != NULL ? "/" : "",
		    kinds->arg_meta != NULL ? kinds->arg_meta : "");
	}
}

static int
fault_check_one(const struct fault_spec *s, const struct fault_kind *kinds,
    double duration, char *err, size_t errlen)
{
	const struct fault_kind	*k = fault_find(kinds, s->kind);
	char			 list[256];

	if (k == NULL) {
		fault_kind_list(kinds, list, sizeof(list));
		snprintf(err, errlen, "--fault %s: unknown kind '%s' (%s)",
		    s->text, s->kind, list);
		return -1;
	}
	if (s->has_arg && k->arg_meta == NULL) {
		snprintf(err, errlen, "--fault %s: %s takes no /ARG", s->text,
		    k->name);
		return -1;
	}
	if (s->has_arg && (s->arg < k->arg_min || s->arg > k->arg_max)) {
		snprintf(err, errlen, "--fault %s: %s %s from %u to %u",
		    s->text, k->name, k->arg_meta, k->arg_min, k->arg_max);
		return -1;
	}
	if (s->rate > 0 && duration <= 0) {
		snprintf(err, errlen, "--fault %s: a rate goes on until "
		    "--duration, which is needed", s->text);
		return -1;
	}
	return 0;
}

int
fault_check(const struct fault_spec *s, size_t n,
    const struct fault_kind *kinds, double duration, char *err, size_t errlen)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (fault_check_one(&s[i], kinds, duration, err, errlen) == -1)
			return -1;
	return 0;
}

/* The next time of a's schedule, as a delay from now; -1: none left. */
static int
fault_next(struct fault_arm *a, uint64_t now, struct timeval *tv)
{
	double		 delay;
	uint64_t	 when;

	if (a->spec->rate > 0)
		/* Exponential gaps make a Poisson process. */
		delay = -log(1.0 - fault_uniform(a->set)) / a->spec->rate;
	else {
		if (a->next_at == a->spec->n_at)
			return -1;
		when = a->set->start_ns +
		    (uint64_t)(a->spec->at[a->next_at++] * 1e9);
		delay = when > now ? (double)(when - now) / 1e9 : 0;
	}
	tv->tv_sec = (time_t)delay;
	tv->tv_usec = (suseconds_t)((delay - (double)tv->tv_sec) * 1e6);
	return 0;
}

static void
fault_arm_next(struct fault_arm *a, uint64_t now)
{
	struct timeval	tv;

	if (fault_next(a, now, &tv) == 0)
		engine_timer_add(a->ev, &tv);
}

static void
fault_fire(evutil_socket_t fd, short what, void *arg)
{
	struct fault_arm	*a = arg;
	struct fault_shot	 shot;
	int			 rc;

	(void)fd;
	(void)what;
	shot.rnd = fault_rand(a->set);
	shot.arg = a->spec->has_arg ? a->spec->arg : a->kind->arg_default;
	shot.now_ns = clock_ns();
	shot.kind = a->kind;
	fault_firing = a->set;
	rc = a->kind->inject(a->set->cfg, &shot);
	fault_firing = NULL;
	if (rc == 0)
		(*a->count)++;
	else {
		if ((*a->missed)++ == 0)
			log_info("fault %s%s: no device could take it "
			    "(further misses counted)", a->set->m->prefix,
			    a->kind->name);
	}
	fault_arm_next(a, clock_ns());
}

/* fault_KIND with '_' for '-' (fault_port_flap): a name --expect and
 * Prometheus take as it is. */
static void
fault_counter_name(char *out, size_t len, const char *kind,
    const char *suffix)
{
	char	*p;

	snprintf(out, len, "fault_%s%s", kind, suffix);
	for (p = out; *p != '\0'; p++)
		if (*p == '-')
			*p = '_';
}

void
fault_start(const struct fault_spec *s, size_t n,
    const struct fault_kind *kinds, void *cfg, struct metrics *m,
    const char *protocol, uint64_t seed, uint64_t start_ns)
{
	struct fault_set	*fs;
	struct fault_arm	*a;
	size_t			 i;

	if (n == 0)
		return;
	if (fault_n_sets == FAULT_MAX_SETS)
		fatalx("more than %d sets of faults", FAULT_MAX_SETS);
	fs = &fault_sets[fault_n_sets++];
	memset(fs, 0, sizeof(*fs));
	fs->cfg = cfg;
	fs->m = m;
	fs->protocol = protocol;
	fs->start_ns = start_ns;
	fs->rng = seed * 0x2545f4914f6cdd1dull + 1;
	for (i = 0; i < n && i < FAULT_MAX_SPECS; i++) {
		a = &fs->arm[i];
		a->set = fs;
		a->spec = &s[i];
		if ((a->kind = fault_find(kinds, s[i].kind)) == NULL)
			fatalx("fault %s not checked", s[i].text);
		fault_counter_name(a->name, sizeof(a->name), s[i].kind, "");
		fault_counter_name(a->name_missed, sizeof(a->name_missed),
		    s[i].kind, "_missed");
		a->count = metrics_counter(m, a->name);
		a->missed = metrics_counter(m, a->name_missed);
		a->ev = engine_timer_new(0, fault_fire, a);
		fault_arm_next(a, clock_ns());
		fs->n++;
	}
}

static void
fault_hold_free(struct fault_hold *h)
{
	LIST_REMOVE(h, entry);
	h->dev->fault_hold = NULL;
	event_free(h->ev);
	free(h);
}

void
fault_stop(void)
{
	struct fault_set	*fs;
	size_t			 i, k;

	/* Output still held stays unsent: the devices stop next. */
	while (!LIST_EMPTY(&fault_holds))
		fault_hold_free(LIST_FIRST(&fault_holds));
	for (k = 0; k < fault_n_sets; k++) {
		fs = &fault_sets[k];
		for (i = 0; i < fs->n; i++) {
			event_free(fs->arm[i].ev);
			if (fs->arm[i].kind->stop != NULL)
				fs->arm[i].kind->stop(fs->cfg);
		}
		fs->n = 0;
		fs->outstanding = 0;
		fs->reconnect = NULL;
		fs->cfg = NULL;
	}
	fault_n_sets = 0;
}

static int
fault_set_busy(const struct fault_set *fs, uint64_t now, double timeout_s)
{
	size_t	i;

	if (fs->outstanding > 0 && now >= fs->last_drop_ns &&
	    (double)(now - fs->last_drop_ns) / 1e9 < timeout_s)
		return 1;
	for (i = 0; i < fs->n; i++)
		if (fs->arm[i].spec->rate == 0 &&
		    evtimer_pending(fs->arm[i].ev, NULL))
			return 1;
	return 0;
}

int
fault_busy(uint64_t now, double timeout_s)
{
	size_t	k;

	for (k = 0; k < fault_n_sets; k++)
		if (fault_set_busy(&fault_sets[k], now, timeout_s))
			return 1;
	/* A delayed device's answers are still to come. */
	return !LIST_EMPTY(&fault_holds);
}

/* One more device to come back: the reconnect phase's target grows, and
 * a phase done with the last drop runs again. */
static void
fault_reconnect_expect(struct fault_set *fs, uint64_t now)
{
	struct phase	*ph = fs->reconnect;

	if (ph == NULL)
		ph = fs->reconnect = metrics_phase(fs->m, "reconnect",
		    fs->protocol);
	phase_start(ph, now);
	if (ph->state == PHASE_DONE) {
		ph->state = PHASE_RUNNING;
		ph->end_ns = 0;
	}
	ph->target++;
	fs->outstanding++;
	fs->last_drop_ns = now;
}

void *
fault_pick(void *base, size_t n, size_t size, int (*ok)(const void *dev),
    uint64_t rnd)
{
	char	*at = base;
	size_t	 i, up = 0, k;

	for (i = 0; i < n; i++)
		up += ok(at + i * size) != 0;
	if (up == 0)
		return NULL;
	k = (size_t)(rnd % up);
	for (i = 0; i < n; i++)
		if (ok(at + i * size) && k-- == 0)
			return at + i * size;
	return NULL;
}

int
fault_pick_flap(void *base, size_t n, size_t size, size_t pd_off,
    int (*ok)(const void *dev), void (*flap)(void *dev),
    const struct fault_shot *shot)
{
	char	*dev;

	if ((dev = fault_pick(base, n, size, ok, shot->rnd)) == NULL)
		return -1;
	fault_dev_dropped((struct pool_dev *)(void *)(dev + pd_off),
	    shot->now_ns);
	flap(dev);
	return 0;
}

static int
fault_pool_drop(struct pool *p, const struct fault_shot *shot)
{
	struct linger	 lg = { 1, 0 };
	struct pool_dev	*d;
	uint32_t	 i, up = 0, k;

	for (i = 0; i < p->n_devs; i++)
		up += p->devs[i]->state == PD_UP;
	if (up == 0)
		return -1;
	k = (uint32_t)(shot->rnd % up);
	for (i = 0; i < p->n_devs; i++) {
		d = p->devs[i];
		if (d->state != PD_UP || k-- > 0)
			continue;
		fault_dev_dropped(d, shot->now_ns);
		/* Abrupt: a reset (linger 0), as when a link or a host goes,
		 * not a goodbye; the pool's own path frees the session and
		 * backs off as after any drop. */
		if (d->bev != NULL && bufferevent_getfd(d->bev) != -1)
			setsockopt(bufferevent_getfd(d->bev), SOL_SOCKET,
			    SO_LINGER, &lg, sizeof(lg));
		pool_lost(d, "dropped by --fault drop");
		return 0;
	}
	return -1;
}

/* The set a drop belongs to: the one injecting now; outside a fault's
 * handler (a drop a kind's own timer makes), the run's only set. */
static struct fault_set *
fault_dropping_set(void)
{
	if (fault_firing != NULL)
		return fault_firing;
	return fault_n_sets == 1 ? &fault_sets[0] : NULL;
}

void
fault_dev_dropped(struct pool_dev *d, uint64_t now)
{
	struct fault_set	*fs;

	if (d->fault_ns != 0)
		return;		/* already expected back */
	pool_watch_set(&fault_watch);
	if ((fs = fault_dropping_set()) == NULL) {
		log_warnx("fault: a drop outside a fault's schedule, not "
		    "counted in reconnect");
		return;
	}
	fault_reconnect_expect(fs, now);
	d->fault_ns = now;
	d->fault_set = fs;
}

void
fault_dev_up(struct pool_dev *d, uint64_t now)
{
	struct fault_set	*fs = d->fault_set;
	uint64_t		 since = d->fault_ns;

	d->fault_ns = 0;
	d->fault_set = NULL;
	if (fs == NULL || fs->reconnect == NULL || since == 0)
		return;
	fs->outstanding--;
	phase_items(fs->reconnect, now, 1);
	phase_latency(fs->reconnect, (now - since) / 1000);
}

/* The hold's time is up: what the device said meanwhile goes, in order. */
static void
fault_hold_release(evutil_socket_t fd, short what, void *arg)
{
	struct fault_hold	*h = arg;
	struct bufferevent	*bev = h->dev->bev;

	(void)fd;
	(void)what;
	*h->bytes += evbuffer_get_length(bufferevent_get_output(bev));
	fault_hold_free(h);
	bufferevent_enable(bev, EV_WRITE);
}

static int
fault_pool_delay(struct pool *p, const struct fault_shot *shot)
{
	struct fault_set	*fs = fault_firing;
	struct fault_hold	*h;
	struct pool_dev		*d;
	uint32_t		 i, up = 0, k, ms;

	for (i = 0; i < p->n_devs; i++)
		up += p->devs[i]->state == PD_UP && p->devs[i]->bev != NULL &&
		    p->devs[i]->fault_hold == NULL;
	if (up == 0 || fs == NULL)
		return -1;
	k = (uint32_t)shot->rnd % up;
	for (i = 0; i < p->n_devs; i++) {
		d = p->devs[i];
		if (d->state == PD_UP && d->bev != NULL &&
		    d->fault_hold == NULL && k-- == 0)
			break;
	}
	/* The jitter: uniform in [MS/2, 3*MS/2], from the set's generator
	 * (the bits the pick above did not use). */
	ms = shot->arg / 2 + (uint32_t)((shot->rnd >> 32) % (shot->arg + 1));
	pool_watch_set(&fault_watch);
	h = xcalloc(1, sizeof(*h));
	h->dev = d;
	h->bytes = metrics_counter(fs->m, "fault_delay_bytes");
	*metrics_counter(fs->m, "fault_delay_ms") += ms;
	h->ev = engine_timer_new(0, fault_hold_release, h);
	LIST_INSERT_HEAD(&fault_holds, h, entry);
	d->fault_hold = h;
	/*
	 * EV_WRITE off: what the device says stays in its output buffer,
	 * in order, while it reads and answers as ever.  With TLS too:
	 * libevent's OpenSSL filter writes application data only while
	 * EV_WRITE is on, and still lets a read that needs a write
	 * through (its read-blocked-on-write path).
	 */
	bufferevent_disable(d->bev, EV_WRITE);
	engine_timer_add_ms(h->ev, ms);
	return 0;
}

/* fn on the pool of the kind's pools that rnd picks, then on the next
 * ones while none of its devices can take it (rnd's quotient picks the
 * device). */
static int
fault_any_pool(void *cfg, const struct fault_shot *shot,
    int (*fn)(struct pool *, const struct fault_shot *))
{
	struct fault_shot	 one = *shot;
	struct pool		*p;
	unsigned		 i, n;

	p = shot->kind->pools(cfg, &n);
	one.rnd = shot->rnd / n;
	for (i = 0; i < n; i++)
		if (fn(&p[(shot->rnd + i) % n], &one) == 0)
			return 0;
	return -1;
}

int
fault_pools_drop(void *cfg, const struct fault_shot *shot)
{
	return fault_any_pool(cfg, shot, fault_pool_drop);
}

int
fault_pools_delay(void *cfg, const struct fault_shot *shot)
{
	return fault_any_pool(cfg, shot, fault_pool_delay);
}

/* From the pool (fault_watch): d's connection goes; a delay's hold on
 * it goes too. */
static void
fault_dev_closing(struct pool_dev *d)
{
	if (d->fault_hold != NULL)
		fault_hold_free(d->fault_hold);
}
