// libjpeg-turbo's TurboJPEG API (libturbojpeg0-dev): one call compresses an RGBA buffer.
#include <turbojpeg.h>
