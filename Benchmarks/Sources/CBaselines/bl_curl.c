// The bare libcurl baseline for the transport benchmarks: a plain multi loop.
#include "CBaselines.h"
#include <curl/curl.h>
#include <stdlib.h>

static size_t bl_curl_write(char *data, size_t size, size_t count, void *context) {
    (void)data;
    *(long long *)context += (long long)(size * count);
    return size * count;
}

int bl_curl_fetch_all(const char *const *urls, int count, int max_host_connections, long long *bytes) {
    CURLM *multi = curl_multi_init();
    if (!multi) return -1;
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)max_host_connections);
    CURL **handles = calloc((size_t)count, sizeof(CURL *));
    long long total = 0;
    for (int i = 0; i < count; i++) {
        CURL *easy = curl_easy_init();
        handles[i] = easy;
        curl_easy_setopt(easy, CURLOPT_URL, urls[i]);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, bl_curl_write);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, &total);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
        curl_multi_add_handle(multi, easy);
    }
    int running = 1;
    while (running) {
        if (curl_multi_perform(multi, &running) != CURLM_OK) break;
        if (running) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    int ok = 0;
    for (int i = 0; i < count; i++) {
        long status = 0;
        curl_easy_getinfo(handles[i], CURLINFO_RESPONSE_CODE, &status);
        if (status == 200) ok++;
        curl_multi_remove_handle(multi, handles[i]);
        curl_easy_cleanup(handles[i]);
    }
    free(handles);
    curl_multi_cleanup(multi);
    *bytes = total;
    return ok;
}
