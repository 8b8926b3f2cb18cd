// C glue for WebImageColor: building LittleCMS transforms for the layouts the decoders
// produce (see wi_color.h).
#include "wi_color.h"
