#include "bl_fetch_each.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    CURL *easy;   // NULL once the transfer is over and its handle freed
    unsigned char *bytes;
    size_t count;
    size_t capacity;
    int failed;   // out of memory: the body is incomplete, count the transfer failed
} bl_body;

static size_t bl_body_write(char *data, size_t size, size_t count, void *context) {
    bl_body *body = context;
    size_t length = size * count;
    if (body->count + length > body->capacity) {
        size_t capacity = body->capacity ? body->capacity : 16384;
        while (capacity < body->count + length) capacity *= 2;
        unsigned char *grown = realloc(body->bytes, capacity);
        if (grown == NULL) {
            body->failed = 1;
            return 0; // makes libcurl end the transfer with CURLE_WRITE_ERROR
        }
        body->bytes = grown;
        body->capacity = capacity;
    }
    memcpy(body->bytes + body->count, data, length);
    body->count += length;
    return length;
}

int bl_fetch_each(const char *const *urls, int count, int max_host_connections,
                  bl_body_handler handler, void *context, long long *bytes) {
    *bytes = 0;
    CURLM *multi = curl_multi_init();
    bl_body *bodies = calloc((size_t)count, sizeof(bl_body));
    if (multi == NULL || bodies == NULL) {
        if (multi) curl_multi_cleanup(multi);
        free(bodies);
        return -1;
    }
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)max_host_connections);
    int added = 0;
    for (; added < count; added++) {
        CURL *easy = curl_easy_init();
        if (easy == NULL) break;
        curl_easy_setopt(easy, CURLOPT_URL, urls[added]);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, bl_body_write);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, &bodies[added]);
        curl_easy_setopt(easy, CURLOPT_PRIVATE, &bodies[added]);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
        if (curl_multi_add_handle(multi, easy) != CURLM_OK) {
            curl_easy_cleanup(easy);
            break;
        }
        bodies[added].easy = easy;
    }
    int delivered = 0, running = 1;
    long long total = 0;
    while (running) {
        if (curl_multi_perform(multi, &running) != CURLM_OK) break;
        CURLMsg *message;
        int left = 0;
        while ((message = curl_multi_info_read(multi, &left)) != NULL) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            CURLcode result = message->data.result; // read before the handle goes
            char *private = NULL;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, &private);
            bl_body *body = (bl_body *)private;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            curl_multi_remove_handle(multi, easy);
            curl_easy_cleanup(easy);
            body->easy = NULL;
            if (result == CURLE_OK && status == 200 && !body->failed) {
                total += (long long)body->count;
                delivered++;
                handler(context, (int)(body - bodies), body->bytes, body->count);
            } else {
                free(body->bytes);
            }
            body->bytes = NULL;
        }
        if (running) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    // After a multi error, unfinished transfers remain: remove and free them.
    for (int i = 0; i < added; i++) {
        if (bodies[i].easy) {
            curl_multi_remove_handle(multi, bodies[i].easy);
            curl_easy_cleanup(bodies[i].easy);
        }
        free(bodies[i].bytes);
    }
    free(bodies);
    curl_multi_cleanup(multi);
    *bytes = total;
    return delivered;
}
