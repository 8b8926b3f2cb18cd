// Reading a node's replies straight into hiredis's reply reader.
//
// hiredis reads at most 16 KiB into a buffer on the stack and appends it to its reader's
// buffer, which it frees whenever it is empty and over 16 KiB: a 50 KB value took four
// reads, four copies into a buffer grown (and copied) from nothing for every reply, then
// the copy into the reply. Here the socket is read into the reader's own buffer, kept
// between replies, and once a bulk string's length is known the read asks for exactly
// the bytes that end it, so that nothing is left over to move down after the reply. A
// 50 KB value takes two reads and one copy of ours (into the reply, by hiredis).
//
// Only the reader's buffer is touched, as `redisReaderFeed` does; hiredis still parses
// every reply, runs every callback, and sees every end of file and error itself.
#ifndef WI_REDIS_READ_H
#define WI_REDIS_READ_H

#include <errno.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <hiredis/sds.h>
#include <unistd.h>

typedef enum {
    /// The socket has nothing more for now.
    WI_REDIS_READ_DRAINED = 0,
    /// The read filled what it asked for: read again.
    WI_REDIS_READ_MORE = 1,
    /// End of file, an error, or a reader in a state this does not handle: call
    /// `redisAsyncHandleRead`, which reads again and handles it as hiredis does.
    WI_REDIS_READ_HANDLE = 2,
} wi_redis_read_result;

/// The bytes still to come of the top-level bulk string the reader is in the middle of,
/// or 0 when unknown (another type, the length line not whole yet, another layout).
static inline size_t wi_redis_bulk_remaining(const redisReader *r) {
#if HIREDIS_MAJOR == 0
    size_t start;
    if (r->ridx == 0 && r->rstack[0].type == REDIS_REPLY_STRING) {
        start = r->pos;  // the reader has taken the '$'
    } else if (r->ridx == -1 && r->pos < r->len && r->buf[r->pos] == '$') {
        start = r->pos + 1;
    } else {
        return 0;
    }
    size_t index = start;
    size_t length = 0;
    while (index < r->len && r->buf[index] >= '0' && r->buf[index] <= '9') {
        length = length * 10 + (size_t)(r->buf[index] - '0');
        if (length > ((size_t)1 << 40)) return 0;  // nonsense: let hiredis judge it
        index += 1;
    }
    if (index == start || index + 2 > r->len || r->buf[index] != '\r' || r->buf[index + 1] != '\n') return 0;
    size_t end = index + 2 + length + 2;
    return end > r->len ? end - r->len : 0;
#else
    (void)r;  // hiredis 1 keeps its parse stack elsewhere: reads are plain chunks there
    return 0;
#endif
}

/// One read from `context`'s socket into its reader: `chunk` bytes when the size of what
/// comes is unknown, else the rest of the bulk string (at most `largest`); the replies
/// it completes are handed to hiredis, which runs their callbacks (and may free the
/// context: do not touch it after `WI_REDIS_READ_DRAINED` or `MORE` without checking).
/// The reader's buffer is kept between replies up to `kept` bytes of room.
static inline wi_redis_read_result wi_redis_read(redisAsyncContext *context, size_t chunk, size_t largest, size_t kept) {
    redisContext *connection = &context->c;
    redisReader *reader = connection->reader;
    if (reader == NULL || reader->err || connection->err || !(connection->flags & REDIS_CONNECTED)) {
        return WI_REDIS_READ_HANDLE;
    }
    if (reader->len == 0 && sdsavail(reader->buf) > kept) {
        sds empty = sdsempty();
        if (empty == NULL) return WI_REDIS_READ_HANDLE;
        sdsfree(reader->buf);
        reader->buf = empty;
        reader->pos = 0;
    }
    size_t wanted = wi_redis_bulk_remaining(reader);
    if (wanted == 0) wanted = chunk;
    if (wanted > largest) wanted = largest;
    sds grown = sdsMakeRoomFor(reader->buf, wanted);
    if (grown == NULL) return WI_REDIS_READ_HANDLE;
    reader->buf = grown;
    ssize_t count = read(connection->fd, reader->buf + reader->len, wanted);
    if (count < 0 && errno == EINTR) return WI_REDIS_READ_MORE;
    if (count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return WI_REDIS_READ_DRAINED;
    if (count <= 0) return WI_REDIS_READ_HANDLE;
    sdsIncrLen(reader->buf, (int)count);
    reader->len = sdslen(reader->buf);
    // As redisAsyncHandleRead does after a read: keep asking for readability.
    if (context->ev.addRead) context->ev.addRead(context->ev.data);
    redisProcessCallbacks(context);
    return (size_t)count == wanted ? WI_REDIS_READ_MORE : WI_REDIS_READ_DRAINED;
}

#endif
