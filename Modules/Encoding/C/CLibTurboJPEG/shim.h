// libjpeg-turbo's TurboJPEG API (libturbojpeg0-dev): JPEGEncoder compresses an RGBA
// buffer in one call; PlanarJPEGThumbnailer decodes to and compresses from YCbCr planes.
#include <turbojpeg.h>
