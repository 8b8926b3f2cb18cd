// The bare baseline for a cold load on several cores: the shape of the manager's
// pipeline with nothing else in it. The calling thread runs the libcurl multi loop;
// decoding threads take each body as the loop hands it over (a mutex, a condition
// variable and a list, the least a C program needs to pass work between threads) and
// decode it with TurboJPEG. What this reaches is what the two halves overlapped can
// reach on this machine, with the handover's own cost and the cores shared with the
// server.
#define _GNU_SOURCE  // pthread_setname_np
#include "CBaselines.h"
#include "bl_fetch_each.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <turbojpeg.h>
#include <unistd.h>

typedef struct bl_job {
    struct bl_job *next;
    int index;
    unsigned char *bytes;
    size_t count;
} bl_job;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    bl_job *head;     // the bodies waiting, oldest first; under `lock`
    bl_job *tail;
    int closed;       // the loop is over: decoders end once the list is empty
    int decoded;      // under `lock`
    void **kept;      // every image's pixels held here, or NULL: freed at once
    int prefault;     // map a kept image's pages in one call before decoding into them
} bl_handover;

static void bl_hand_over(void *context, int index, unsigned char *bytes, size_t count) {
    bl_handover *handover = context;
    bl_job *job = malloc(sizeof(bl_job));
    if (job == NULL) {  // lost: the decoded count comes out short
        free(bytes);
        return;
    }
    *job = (bl_job){.index = index, .bytes = bytes, .count = count};
    pthread_mutex_lock(&handover->lock);
    if (handover->tail) handover->tail->next = job; else handover->head = job;
    handover->tail = job;
    pthread_cond_signal(&handover->ready);
    pthread_mutex_unlock(&handover->lock);
}

// Maps the whole pages inside [pointer, pointer + size) in one system call
// (MADV_POPULATE_WRITE, Linux 5.14 and later), instead of one fault per page as the
// decoder first writes them: what the manager's pixel storage does for a still image.
static void bl_prefault(void *pointer, size_t size) {
#ifdef MADV_POPULATE_WRITE
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = ((uintptr_t)pointer + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)pointer + size) & ~(page - 1);
    if (end > start) madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
    (void)pointer;
    (void)size;
#endif
}

// Decodes one body to RGBA; the pixels go to `kept` when given, else are freed.
static int bl_decode_into(tjhandle handle, const bl_job *job, unsigned char **kept, int prefault) {
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (tjDecompressHeader3(handle, job->bytes, (unsigned long)job->count,
                            &width, &height, &subsampling, &colorspace) != 0) return -1;
    size_t size = (size_t)width * (size_t)height * 4;
    unsigned char *pixels = malloc(size);
    if (pixels == NULL) return -1;
    if (prefault) bl_prefault(pixels, size);
    int status = tjDecompress2(handle, job->bytes, (unsigned long)job->count,
                               pixels, width, width * 4, height, TJPF_RGBA, 0);
    if (status != 0 || kept == NULL) {
        free(pixels);
    } else {
        *kept = pixels;
    }
    return status == 0 ? 0 : -1;
}

static void *bl_decoder_main(void *context) {
    bl_handover *handover = context;
    pthread_setname_np(pthread_self(), "bl-decode");  // for profilers; the CPU table counts it as "other"
    tjhandle handle = tjInitDecompress();
    for (;;) {
        pthread_mutex_lock(&handover->lock);
        while (handover->head == NULL && !handover->closed) pthread_cond_wait(&handover->ready, &handover->lock);
        bl_job *job = handover->head;
        if (job) {
            handover->head = job->next;
            if (handover->head == NULL) handover->tail = NULL;
        }
        pthread_mutex_unlock(&handover->lock);
        if (job == NULL) break;
        unsigned char **slot = handover->kept ? (unsigned char **)&handover->kept[job->index] : NULL;
        if (handle != NULL && bl_decode_into(handle, job, slot, handover->prefault) == 0) {
            pthread_mutex_lock(&handover->lock);
            handover->decoded++;
            pthread_mutex_unlock(&handover->lock);
        }
        free(job->bytes);
        free(job);
    }
    if (handle) tjDestroy(handle);
    return NULL;
}

static void bl_close(bl_handover *handover, pthread_t *threads, int started) {
    pthread_mutex_lock(&handover->lock);
    handover->closed = 1;
    pthread_cond_broadcast(&handover->ready);
    pthread_mutex_unlock(&handover->lock);
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    pthread_cond_destroy(&handover->ready);
    pthread_mutex_destroy(&handover->lock);
}

int bl_fetch_decode_pipelined(const char *const *urls, int count, int max_host_connections, int decoders,
                              void **kept, int prefault, long long *bytes) {
    enum { most_decoders = 64 };
    *bytes = 0;
    if (decoders < 1 || decoders > most_decoders) return -1;
    bl_handover handover = {.kept = kept, .prefault = kept != NULL && prefault};
    pthread_mutex_init(&handover.lock, NULL);
    pthread_cond_init(&handover.ready, NULL);
    pthread_t threads[most_decoders];
    int started = 0;
    while (started < decoders && pthread_create(&threads[started], NULL, bl_decoder_main, &handover) == 0) started++;
    int fetched = started < decoders ? -1 : bl_fetch_each(urls, count, max_host_connections, bl_hand_over, &handover, bytes);
    bl_close(&handover, threads, started);
    return fetched < 0 ? -1 : handover.decoded;
}

void bl_free_kept(void **kept, int count) {
    for (int i = 0; i < count; i++) {
        free(kept[i]);
        kept[i] = NULL;
    }
}
