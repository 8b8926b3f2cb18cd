// The buffers of the shared cache's replies, recycled rather than taken from `malloc`
// and given back for every reply.
//
// A 50 KB value is copied by hiredis into a buffer of its own, handed to the caller (the
// value's `Data`) and freed on another thread once used. glibc gives the top of a heap
// back to the system whenever more than 128 KiB of it is free, so in a run of hits most
// of those buffers were new pages: one page fault per 4 KiB, about a fifth of the
// client's CPU. A freed buffer waits here instead, for the next reply of about its size.
#ifndef WI_REPLY_BUFFERS_H
#define WI_REPLY_BUFFERS_H

#include <stddef.h>

/// A stash of buffers by size class. Replies use the shared one; a test makes its own,
/// so that what it stashes and counts is its alone.
typedef struct wi_reply_pool wi_reply_pool;

/// The pool the replies' strings come from.
wi_reply_pool *wi_reply_pool_shared(void);

/// A pool of its own; NULL when out of memory. Destroy it once every buffer it handed
/// out has been given back.
wi_reply_pool *wi_reply_pool_create(void);
void wi_reply_pool_destroy(wi_reply_pool *pool);

/// Room for `length` bytes, from the pool when a buffer of its size class waits there;
/// NULL when out of memory. Every buffer goes back through `wi_reply_buffer_release`.
void *wi_reply_pool_allocate(wi_reply_pool *pool, size_t length);

/// Gives `buffer` back to the pool it came from while that has room for it, else to
/// `free`. NULL is ignored. Any thread.
void wi_reply_buffer_release(void *buffer);

/// The bytes of the buffers waiting in `pool` (for tests).
size_t wi_reply_pool_stashed_bytes(wi_reply_pool *pool);

/// The buffers waiting in `pool` in the size class of `length` (for tests).
int wi_reply_pool_stashed_count(wi_reply_pool *pool, size_t length);

/// Frees every buffer waiting in `pool`.
void wi_reply_pool_drain(wi_reply_pool *pool);

/// The room of the buffer returned for `length` bytes (for tests): its size class, or
/// `length` itself outside the classes.
size_t wi_reply_buffer_capacity(size_t length);

/// hiredis's reply objects (a `redisReplyObjectFunctions *`, untyped here so that this
/// module does not bring in a second copy of hiredis's types), made as its own are
/// (`redisReply`), with string replies in the buffers above: set as a reader's `fn`.
/// RESP2's types only (the client never asks for RESP3). A caller that takes a reply's
/// `str` gives it back with `wi_reply_buffer_release`.
void *wi_reply_functions(void);

#endif
