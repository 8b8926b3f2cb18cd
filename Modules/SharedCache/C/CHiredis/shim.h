// hiredis (Debian's libhiredis-dev): the synchronous context for its reply type and
// the asynchronous context the shared cache drives from its own event loop.
#include <hiredis/hiredis.h>
#include <hiredis/async.h>

