// The bare libcurl baseline for the transport benchmarks: a plain multi loop.
#include "CBaselines.h"
#include <curl/curl.h>
#include <stdlib.h>

static size_t bl_curl_write(char *data, size_t size, size_t count, void *context) {
    (void)data;
    *(long long *)context += (long long)(size * count);
    return size * count;
}

static CURL *bl_curl_easy(const char *url, long long *total) {
    CURL *easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, bl_curl_write);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, total);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    return easy;
}

int bl_curl_fetch_windowed(const char *const *urls, int count, int max_host_connections, long long *bytes) {
    CURLM *multi = curl_multi_init();
    if (!multi) return -1;
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)max_host_connections);
    long long total = 0;
    int next = 0, ok = 0, running = 0, in_multi = 0;
    for (; next < count && next < max_host_connections; next++, in_multi++) {
        curl_multi_add_handle(multi, bl_curl_easy(urls[next], &total));
    }
    while (in_multi > 0) {
        if (curl_multi_perform(multi, &running) != CURLM_OK) break;
        CURLMsg *message;
        int left, added = 0;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result == CURLE_OK && status == 200) ok++;
            curl_multi_remove_handle(multi, easy);
            if (next < count) {
                // The finished handle carries the next URL: reusing handles is what
                // libcurl recommends, and what our transport does.
                curl_easy_setopt(easy, CURLOPT_URL, urls[next++]);
                curl_multi_add_handle(multi, easy);
                added = 1;
            } else {
                curl_easy_cleanup(easy);
                in_multi--;
            }
        }
        if (!added && in_multi > 0) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    curl_multi_cleanup(multi);
    *bytes = total;
    return ok;
}

int bl_curl_fetch_all(const char *const *urls, int count, int max_host_connections, long long *bytes) {
    CURLM *multi = curl_multi_init();
    if (!multi) return -1;
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)max_host_connections);
    CURL **handles = calloc((size_t)count, sizeof(CURL *));
    long long total = 0;
    for (int i = 0; i < count; i++) {
        CURL *easy = bl_curl_easy(urls[i], &total);
        handles[i] = easy;
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
