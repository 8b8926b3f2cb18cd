// TurboJPEG for the proxy's planar JPEG path (decode to YCbCr planes, compress from them).
#include <turbojpeg.h>
