/*
 * A NETCONF client session (RFC 6241) for the embedded controller, over
 * SSH (RFC 6242 section 3, libssh's client API) or plain TCP, run
 * non-blocking inside the engine's libevent loop: no thread, no blocking
 * call.  The session connects, exchanges hellos (section 8.1), switches to
 * chunked framing when both sides said base:1.1 (RFC 6242 section 4.1),
 * then carries rpcs, their replies (matched by message-id) and
 * notifications (RFC 5277 section 4).
 *
 * Callbacks may call nc_cli_rpc() and nc_cli_free(); the session is freed
 * from the loop afterwards, never inside its own callbacks.
 */
#ifndef SBSIM_NC_CLI_H
#define SBSIM_NC_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "nc_msg.h"

struct nc_cli;

struct nc_cli_params {
	const char	*host;		/* an IP address, no name lookup */
	uint16_t	 port;
	int		 tcp_only;	/* no SSH */
	const char	*user;
	const char	*password;
	double		 timeout_s;	/* connect + auth + hello */
	size_t		 max_msg;	/* largest message accepted */
};

/* Why a session ended. */
enum nc_cli_fail {
	NCC_FAIL_CONNECT,	/* TCP connect failed or timed out */
	NCC_FAIL_SSH,		/* key exchange, channel, subsystem */
	NCC_FAIL_AUTH,		/* the device refused the credentials */
	NCC_FAIL_HELLO,		/* no usable hello */
	NCC_FAIL_FRAMING,	/* RFC 6242 section 4.2: stream lost */
	NCC_FAIL_CLOSED,	/* the device closed the session */
};
const char *nc_cli_fail_name(enum nc_cli_fail);

struct nc_cli_ops {
	/* Hellos exchanged; peer is valid during the call. */
	void	(*up)(void *arg, const struct nc_hello *peer);
	/* A notification; n is valid during the call. */
	void	(*notif)(void *arg, const struct nc_notif *n);
	/* The session is over (pending rpcs were failed first). */
	void	(*down)(void *arg, enum nc_cli_fail, const char *why);
	/* A message that is neither reply nor notification, or a reply
	 * nobody waits for: counted by the owner. */
	void	(*bad)(void *arg, const char *what);
};

/* A reply to one rpc; r is NULL when the session went down or the rpc
 * timed out (nc_cli_expire).  r is valid during the call. */
typedef void (*nc_cli_reply_cb)(void *arg, const struct nc_reply *r);

struct nc_cli	*nc_cli_new(const struct nc_cli_params *,
		    const struct nc_cli_ops *, void *arg);
/* Send <rpc> with op_xml inside; -1 when the session is not open. */
int		 nc_cli_rpc(struct nc_cli *, const char *op_xml,
		    nc_cli_reply_cb, void *cbarg);
/* Fail the rpcs sent before now - older_ns; returns how many. */
size_t		 nc_cli_expire(struct nc_cli *, uint64_t now_ns,
		    uint64_t older_ns);
/* Bytes received and sent. */
void		 nc_cli_bytes(const struct nc_cli *, uint64_t *in,
		    uint64_t *out);
/* No more callbacks; the session closes and is freed from the loop. */
void		 nc_cli_free(struct nc_cli *);
/* At exit: the shared message buffer. */
void		 nc_cli_cleanup(void);

#endif
