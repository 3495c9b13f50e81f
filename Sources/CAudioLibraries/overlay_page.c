// The overlay's page (overlay/index.html), built into the binary: `pulsebar overlay` serves it
// from memory, so nothing is read from disk at run time and the page cannot go astray from
// the binary that streams its events.
#include "CAudioLibraries.h"

// #embed is C23; clang takes it in every mode.
#pragma clang diagnostic ignored "-Wc23-extensions"
static const unsigned char page[] = {
#embed "../../overlay/index.html"
};

const unsigned char *pulsebar_overlay_page(size_t *size) {
  *size = sizeof page;
  return page;
}
