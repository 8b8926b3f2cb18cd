// libavif (avif.h, from libavif-dev): the AVIF container, with dav1d decoding and
// libaom encoding behind it in Debian's build.
#include <avif/avif.h>
