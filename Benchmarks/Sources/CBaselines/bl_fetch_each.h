// The multi loop both cold-load baselines run: every URL added at once, each body kept
// in a growing buffer and passed on the moment its transfer completes.
#ifndef BL_FETCH_EACH_H
#define BL_FETCH_EACH_H

#include <stddef.h>

/// Called on the loop's thread with the `index`th URL's complete body (status 200). It
/// takes the bytes, `malloc`ed, and frees them when done, now or later.
typedef void (*bl_body_handler)(void *context, int index, unsigned char *bytes, size_t count);

/// Runs one libcurl multi loop over `urls` (CURLMOPT_MAX_HOST_CONNECTIONS =
/// `max_host_connections`) until every transfer ends, handing each complete body to
/// `handler`. Returns the bodies handed over, or -1 if it could not start; `bytes` gets
/// their total.
int bl_fetch_each(const char *const *urls, int count, int max_host_connections,
                  bl_body_handler handler, void *context, long long *bytes);

#endif
