/*
 * Last words on a connection that closes right after: what is queued in
 * the bufferevent, then one more message, written now.  (A bufferevent's
 * output can only be drained by the bufferevent, so it is copied out.)
 */
#ifndef SBSIM_BGP_IO_H
#define SBSIM_BGP_IO_H

#include <stddef.h>

struct bufferevent;

/* 0 when all went to the kernel, -1 when the socket would not take it
 * (then msg is not sent either: it would land inside a message). */
int	bgp_write_last(struct bufferevent *, const void *msg, size_t len);

#endif
