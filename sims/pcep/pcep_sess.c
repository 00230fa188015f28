/* The session rules the PCC and the PCE share (pcep_sess.h). */
#include <stdint.h>
#include <stdio.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "metrics.h"
#include "pool.h"
#include "pcep_sess.h"

#define PCEP_MAX_UNKNOWN	5	/* MAX-UNKNOWN-MESSAGES, 6.9 */
#define NS		1000000000ull

/* On each new connection; the minute's start stays (6.9 counts per
 * minute, whatever the connection). */
void
pcep_sess_init(struct pcep_sess *h, const struct pcep_sess_ops *ops,
    void *owner, uint64_t *bad, struct bufferevent **bevp,
    const uint8_t *statep)
{
	h->ops = ops;
	h->owner = owner;
	h->bad = bad;
	h->bevp = bevp;
	h->statep = statep;
	h->unknown = 0;
}

int
pcep_sess_out_full(const struct pcep_sess *h)
{
	return *h->bevp == NULL || evbuffer_get_length(
	    bufferevent_get_output(*h->bevp)) >= h->ops->out_high;
}

void
pcep_sess_bad(struct pcep_sess *h, const struct pcep_err *err,
    uint32_t srp_id)
{
	(*h->bad)++;
	if (err->type != 0)
		h->ops->pcerr(h->owner, pcep_err_code(err), srp_id);
	if (err->close_reason != 0)
		h->ops->close(h->owner, err->close_reason, "malformed message");
}

void
pcep_sess_open_malformed(struct pcep_sess *h, const struct pcep_err *err)
{
	(*h->bad)++;
	h->ops->pcerr(h->owner, pcep_err_code(err), 0);
	h->ops->close(h->owner, PCEP_CLOSE_MALFORMED, "malformed Open");
}

/* The first gets PCErr 1/4 with what we would take and a new OpenWait;
 * the second 1/5 and the end of the attempt. */
void
pcep_sess_open_refused(struct pcep_sess *h, uint8_t tries,
    const struct pcep_open *prop, uint64_t *state_ns)
{
	if (tries == 1) {
		h->ops->open_pcerr(h->owner, PCEP_E_OPEN_NEGOTIABLE, prop);
		*state_ns = clock_ns();
		return;
	}
	h->ops->open_pcerr(h->owner, PCEP_E_OPEN_SECOND_UNACCEPTABLE, NULL);
	h->ops->close(h->owner, PCEP_CLOSE_NONE, "second Open unacceptable");
}

int
pcep_sess_pcerr_decode(struct pcep_sess *h, struct rbuf *body,
    struct pcep_errmsg *em)
{
	struct pcep_err	err;

	if (pcep_ctlrr_decode(body, em, &err) == -1) {
		pcep_sess_bad(h, &err, 0);
		return -1;
	}
	return 0;
}

const char *
pcep_sess_pcerr_text(const struct pcep_errmsg *em, char *buf, size_t len)
{
	uint8_t	t = em->n ? em->item[0].type : 0;
	uint8_t	v = em->n ? em->item[0].value : 0;

	snprintf(buf, len, "%u/%u (%s)", t, v, em->n ?
	    pcep_error_name(t, v) : "empty");
	return buf;
}

/* PCErr "capability not supported", and a CLOSE once more than
 * MAX-UNKNOWN-MESSAGES came within a minute. */
void
pcep_sess_unknown(struct pcep_sess *h)
{
	uint64_t	now = clock_ns();

	if (now - h->unknown_ns >= 60 * NS) {
		h->unknown_ns = now;
		h->unknown = 0;
	}
	if (++h->unknown > PCEP_MAX_UNKNOWN) {
		h->ops->close(h->owner, PCEP_CLOSE_UNKNOWN_MSG,
		    "too many unknown messages");
		return;
	}
	h->ops->pcerr(h->owner, PCEP_E_CAPABILITY, 0);
}

/* ---- framing (pool_read): a header that cannot be framed is a bad
 * message; while the output is full, reading waits (back pressure) ---- */

static void
sess_drain(struct bufferevent *bev)
{
	struct evbuffer	*in = bufferevent_get_input(bev);

	evbuffer_drain(in, evbuffer_get_length(in));
}

static int
sess_closing(const struct pcep_sess *h)
{
	return *h->statep == h->ops->closing;
}

/* After a message or a bad header: reading stops once the connection is
 * lost (no bufferevent any more) or closing, and then what still came
 * is dropped. */
static int
sess_stop(struct pcep_sess *h)
{
	if (*h->bevp == NULL)
		return -1;
	if (!sess_closing(h))
		return 0;
	sess_drain(*h->bevp);
	return -1;
}

static long
sess_frame_length(void *dev, const uint8_t *hb)
{
	struct pcep_err	err;
	long		len;

	if ((len = pcep_frame_length(hb, &err)) == -1) {
		pcep_sess_bad(dev, &err, 0);
		(void)sess_stop(dev);
	}
	return len;
}

static int
sess_frame_full(void *dev)
{
	return pcep_sess_out_full(dev);
}

static int
sess_frame_message(void *dev, const uint8_t *msg, size_t len)
{
	struct pcep_sess	*h = dev;
	struct rbuf		 body;


	rbuf_init(&body, msg + PCEP_HDR_LEN, len - PCEP_HDR_LEN);
	if (h->ops->message(h->owner, msg[1], &body) == -1)
		return -1;		/* h went with its owner */
	return sess_stop(h);		/* pool_read stops: msg unused */
}

static const struct pool_framer sess_framer = {
	.hdr_len = PCEP_HDR_LEN, .length = sess_frame_length,
	.out_full = sess_frame_full, .message = sess_frame_message,
};

int
pcep_sess_read(struct pcep_sess *h, struct bufferevent *bev, int resume)
{
	if (sess_closing(h)) {
		sess_drain(bev);
		return 0;
	}
	return resume ? pool_read_resume(bev, &sess_framer, h) :
	    pool_read(bev, &sess_framer, h);
}
