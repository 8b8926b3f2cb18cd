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

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *stash[CLASS_COUNT][KEPT_PER_CLASS];
static int stashed[CLASS_COUNT];
static size_t stashed_bytes;

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

void *wi_reply_buffer_allocate(size_t length) {
    int index = class_of(length);
    unsigned char *block = NULL;
    if (index != UNPOOLED) {
        pthread_mutex_lock(&lock);
        if (stashed[index] > 0) {
            block = stash[index][--stashed[index]];
            stashed_bytes -= class_capacity(index);
        }
        pthread_mutex_unlock(&lock);
    }
    if (block == NULL) {
        size_t room = index == UNPOOLED ? length : class_capacity(index);
        if (room > SIZE_MAX - HEADER) return NULL;
        block = malloc(HEADER + room);
        if (block == NULL) return NULL;
    }
    int32_t mark = index;
    memcpy(block, &mark, sizeof mark);
    return block + HEADER;
}

void wi_reply_buffer_release(void *buffer) {
    if (buffer == NULL) return;
    unsigned char *block = (unsigned char *)buffer - HEADER;
    int32_t index;
    memcpy(&index, block, sizeof index);
    if (index >= 0 && index < CLASS_COUNT) {
        size_t room = class_capacity(index);
        pthread_mutex_lock(&lock);
        int kept = stashed[index] < KEPT_PER_CLASS && stashed_bytes + room <= KEPT_BYTES;
        if (kept) {
            stash[index][stashed[index]++] = block;
            stashed_bytes += room;
        }
        pthread_mutex_unlock(&lock);
        if (kept) return;
    }
    free(block);
}

size_t wi_reply_buffer_stashed_bytes(void) {
    pthread_mutex_lock(&lock);
    size_t bytes = stashed_bytes;
    pthread_mutex_unlock(&lock);
    return bytes;
}

int wi_reply_buffer_stashed_count(size_t length) {
    int index = class_of(length);
    if (index == UNPOOLED) return 0;
    pthread_mutex_lock(&lock);
    int count = stashed[index];
    pthread_mutex_unlock(&lock);
    return count;
}

void wi_reply_buffer_drain(void) {
    for (int index = 0; index < CLASS_COUNT; index++) {
        for (;;) {
            pthread_mutex_lock(&lock);
            void *block = stashed[index] > 0 ? stash[index][--stashed[index]] : NULL;
            if (block != NULL) stashed_bytes -= class_capacity(index);
            pthread_mutex_unlock(&lock);
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
    char *copy = wi_reply_buffer_allocate(length + 1);  // NUL-ended, as hiredis's are
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
