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

/// Room for `length` bytes, from the stash when one of its size class waits there; NULL
/// when out of memory. Every buffer goes back through `wi_reply_buffer_release`.
void *wi_reply_buffer_allocate(size_t length);

/// Gives `buffer` back: to the stash while it has room for it, else to `free`. NULL is
/// ignored. Any thread.
void wi_reply_buffer_release(void *buffer);

/// The bytes of the buffers waiting in the stash (for tests).
size_t wi_reply_buffer_stashed_bytes(void);

/// The buffers waiting in the stash in the size class of `length` (for tests).
int wi_reply_buffer_stashed_count(size_t length);

/// Frees every buffer waiting in the stash.
void wi_reply_buffer_drain(void);

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
