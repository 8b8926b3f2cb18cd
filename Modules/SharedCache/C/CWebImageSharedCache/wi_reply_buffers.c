// See the header. The stash holds at most a few buffers per size class and a bounded
// total, so it costs a server a few MiB at most and never grows with the load.
#include "wi_reply_buffers.h"

#include <hiredis/hiredis.h>
#include <hiredis/read.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    // Smaller strings come and go in malloc's own bins, without page faults.
    SMALLEST_CLASS_SHIFT = 14,  // 16 KiB
    // Four classes per power of two: a buffer is at most a quarter larger than asked.
    STEPS_PER_OCTAVE = 4,
    OCTAVES = 9,  // 16 KiB ... 7 MiB, then 8 MiB (the default largest entry) to end
    CLASS_COUNT = STEPS_PER_OCTAVE * OCTAVES + 1,
    KEPT_PER_CLASS = 64,
    // Every buffer starts with a header, which keeps the caller's bytes 16-aligned.
    HEADER = 16,
    UNPOOLED = -1,
};
static const size_t KEPT_BYTES = (size_t)16 << 20;

struct wi_reply_pool {
    pthread_mutex_t lock;
    void *stash[CLASS_COUNT][KEPT_PER_CLASS];
    int stashed[CLASS_COUNT];
    size_t stashed_bytes;
};

// A buffer's header: its class, then the pool it goes back to.
typedef struct {
    int32_t index;
    wi_reply_pool *pool;
} buffer_header;
_Static_assert(sizeof(buffer_header) <= HEADER, "the header fits in front of the caller's bytes");

static wi_reply_pool shared_pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

wi_reply_pool *wi_reply_pool_shared(void) { return &shared_pool; }

wi_reply_pool *wi_reply_pool_create(void) {
    wi_reply_pool *pool = calloc(1, sizeof *pool);
    if (pool != NULL) pthread_mutex_init(&pool->lock, NULL);
    return pool;
}

void wi_reply_pool_destroy(wi_reply_pool *pool) {
    if (pool == NULL || pool == &shared_pool) return;
    wi_reply_pool_drain(pool);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

static size_t class_capacity(int index) {
    size_t octave = (size_t)1 << (SMALLEST_CLASS_SHIFT + index / STEPS_PER_OCTAVE);
    return octave + (size_t)(index % STEPS_PER_OCTAVE) * (octave / STEPS_PER_OCTAVE);
}

/// The smallest class with room for `length`, or UNPOOLED.
static int class_of(size_t length) {
    if (length < ((size_t)1 << SMALLEST_CLASS_SHIFT)) return UNPOOLED;
    for (int index = 0; index < CLASS_COUNT; index++) {
        if (class_capacity(index) >= length) return index;
    }
    return UNPOOLED;
}

size_t wi_reply_buffer_capacity(size_t length) {
    int index = class_of(length);
    return index == UNPOOLED ? length : class_capacity(index);
}

void *wi_reply_pool_allocate(wi_reply_pool *pool, size_t length) {
    int index = class_of(length);
    unsigned char *block = NULL;
    if (index != UNPOOLED) {
        pthread_mutex_lock(&pool->lock);
        if (pool->stashed[index] > 0) {
            block = pool->stash[index][--pool->stashed[index]];
            pool->stashed_bytes -= class_capacity(index);
        }
        pthread_mutex_unlock(&pool->lock);
    }
    if (block == NULL) {
        size_t room = index == UNPOOLED ? length : class_capacity(index);
        if (room > SIZE_MAX - HEADER) return NULL;
        block = malloc(HEADER + room);
        if (block == NULL) return NULL;
    }
    buffer_header header = {.index = index, .pool = pool};
    memcpy(block, &header, sizeof header);
    return block + HEADER;
}

void wi_reply_buffer_release(void *buffer) {
    if (buffer == NULL) return;
    unsigned char *block = (unsigned char *)buffer - HEADER;
    buffer_header header;
    memcpy(&header, block, sizeof header);
    if (header.index >= 0 && header.index < CLASS_COUNT) {
        wi_reply_pool *pool = header.pool;
        size_t room = class_capacity(header.index);
        pthread_mutex_lock(&pool->lock);
        int kept = pool->stashed[header.index] < KEPT_PER_CLASS && pool->stashed_bytes + room <= KEPT_BYTES;
        if (kept) {
            pool->stash[header.index][pool->stashed[header.index]++] = block;
            pool->stashed_bytes += room;
        }
        pthread_mutex_unlock(&pool->lock);
        if (kept) return;
    }
    free(block);
}

size_t wi_reply_pool_stashed_bytes(wi_reply_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    size_t bytes = pool->stashed_bytes;
    pthread_mutex_unlock(&pool->lock);
    return bytes;
}

int wi_reply_pool_stashed_count(wi_reply_pool *pool, size_t length) {
    int index = class_of(length);
    if (index == UNPOOLED) return 0;
    pthread_mutex_lock(&pool->lock);
    int count = pool->stashed[index];
    pthread_mutex_unlock(&pool->lock);
    return count;
}

void wi_reply_pool_drain(wi_reply_pool *pool) {
    for (int index = 0; index < CLASS_COUNT; index++) {
        for (;;) {
            pthread_mutex_lock(&pool->lock);
            void *block = pool->stashed[index] > 0 ? pool->stash[index][--pool->stashed[index]] : NULL;
            if (block != NULL) pool->stashed_bytes -= class_capacity(index);
            pthread_mutex_unlock(&pool->lock);
            if (block == NULL) break;
            free(block);
        }
    }
}

// MARK: hiredis's reply objects

static redisReply *make_reply(const redisReadTask *task, int type) {
    redisReply *reply = calloc(1, sizeof *reply);
    if (reply == NULL) return NULL;
    reply->type = type;
    if (task->parent != NULL) {
        redisReply *parent = task->parent->obj;
        parent->element[task->idx] = reply;
    }
    return reply;
}

static void *create_string(const redisReadTask *task, char *bytes, size_t length) {
    char *copy = wi_reply_pool_allocate(&shared_pool, length + 1);  // NUL-ended, as hiredis's are
    if (copy == NULL) return NULL;
    redisReply *reply = make_reply(task, task->type);
    if (reply == NULL) {
        wi_reply_buffer_release(copy);
        return NULL;
    }
    memcpy(copy, bytes, length);
    copy[length] = '\0';
    reply->str = copy;
    reply->len = length;
    return reply;
}

static void *create_array(const redisReadTask *task, int elements) {
    redisReply *reply = make_reply(task, REDIS_REPLY_ARRAY);
    if (reply == NULL) return NULL;
    if (elements > 0) {
        reply->element = calloc((size_t)elements, sizeof(redisReply *));
        if (reply->element == NULL) {
            if (task->parent != NULL) ((redisReply *)task->parent->obj)->element[task->idx] = NULL;
            free(reply);
            return NULL;
        }
    }
    reply->elements = (size_t)elements;
    return reply;
}

static void *create_integer(const redisReadTask *task, long long value) {
    redisReply *reply = make_reply(task, REDIS_REPLY_INTEGER);
    if (reply != NULL) reply->integer = value;
    return reply;
}

static void *create_nil(const redisReadTask *task) {
    return make_reply(task, REDIS_REPLY_NIL);
}

static void free_reply(void *object) {
    redisReply *reply = object;
    if (reply == NULL) return;
    if (reply->type == REDIS_REPLY_ARRAY && reply->element != NULL) {
        for (size_t index = 0; index < reply->elements; index++) free_reply(reply->element[index]);
        free(reply->element);
    } else {
        wi_reply_buffer_release(reply->str);
    }
    free(reply);
}

static redisReplyObjectFunctions functions = {
    .createString = create_string,
    .createArray = create_array,
    .createInteger = create_integer,
    .createNil = create_nil,
    .freeObject = free_reply,
};

void *wi_reply_functions(void) { return &functions; }
