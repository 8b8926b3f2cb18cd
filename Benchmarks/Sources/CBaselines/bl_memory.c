#include "CBaselines.h"

#include <malloc.h>

void bl_release_free_memory(void) { malloc_trim(0); }
