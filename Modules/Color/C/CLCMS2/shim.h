// LittleCMS 2 (lcms2.h, from liblcms2-dev): ICC profiles and colour transforms.
#include <lcms2.h>
