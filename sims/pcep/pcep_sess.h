/*
 * The session rules a PCC (pcep_pcc.c) and the embedded PCE (pcep_ctl.c)
 * share, RFC 5440: framing and reading, the answer to a bad message, the
 * refused Open and the unknown-message limit.  Each side embeds a struct
 * pcep_sess and fills in its ops; what differs (counters, logs, state
 * names) stays on its side.
 */
#ifndef PCEP_SESS_H
#define PCEP_SESS_H

#include <stdint.h>

#include "pcep_codec.h"

struct bufferevent;
struct rbuf;

struct pcep_sess_ops {
	void	(*pcerr)(void *owner, enum pcep_error, uint32_t srp_id);
	/* RFC 5440 7.15 type 1 with our proposal (NULL: none). */
	void	(*open_pcerr)(void *owner, enum pcep_error,
		    const struct pcep_open *prop);
	void	(*close)(void *owner, uint8_t reason, const char *why);
	/* One whole message; -1 when it freed the owner (nothing of it is
	 * touched again), else 0. */
	int	(*message)(void *owner, uint8_t type, struct rbuf *body);
	size_t	 out_high;	/* output that stops building and reading */
	uint8_t	 closing;	/* the side's state once its CLOSE is sent */
};

struct pcep_sess {
	const struct pcep_sess_ops *ops;
	void		*owner;		/* what the ops get */
	uint64_t	*bad;		/* the side's bad-message counter */
	struct bufferevent **bevp;	/* the side's connection, NULL: none */
	const uint8_t	*statep;	/* the side's state */
	uint64_t	 unknown_ns;	/* start of the unknown-message minute */
	uint8_t		 unknown;	/* in this minute (6.9) */
};

void	pcep_sess_init(struct pcep_sess *, const struct pcep_sess_ops *,
	    void *owner, uint64_t *bad, struct bufferevent **bevp,
	    const uint8_t *statep);
/* No connection, or its output at out_high: build no more (and read no
 * more: back pressure). */
int	pcep_sess_out_full(const struct pcep_sess *);
/* Bad input: counted, the PCErr it deserves, then CLOSE when the codec
 * says so. */
void	pcep_sess_bad(struct pcep_sess *, const struct pcep_err *,
	    uint32_t srp_id);
/* Section 6.2: a malformed Open ends the attempt. */
void	pcep_sess_open_malformed(struct pcep_sess *, const struct pcep_err *);
/* Section 6.2: the tries-th unacceptable Open. */
void	pcep_sess_open_refused(struct pcep_sess *, uint8_t tries,
	    const struct pcep_open *prop, uint64_t *state_ns);
/* A PCErr received (section 6.7) into em; -1 when it does not decode
 * (answered as a bad message). */
int	pcep_sess_pcerr_decode(struct pcep_sess *, struct rbuf *,
	    struct pcep_errmsg *);
/* Its first error for a log line: "TYPE/VALUE (name)", "0/0 (empty)"
 * when it carries none. */
const char *pcep_sess_pcerr_text(const struct pcep_errmsg *, char *buf,
	    size_t len);
/* Sections 6.9 and 7.15 type 2: a message this side does not serve. */
void	pcep_sess_unknown(struct pcep_sess *);
/*
 * What is queued on bev read through the framer (resume: after back
 * pressure), as pool_read; -1 may mean the owner is gone.  While closing,
 * what still comes is dropped instead, so that the CLOSE is not lost to
 * a reset.
 */
int	pcep_sess_read(struct pcep_sess *, struct bufferevent *, int resume);

#endif
