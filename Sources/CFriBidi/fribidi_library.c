// GNU FriBidi, opened with dlopen on first use as libpulse is (CAudioLibraries), so the binary
// does not link it and a desktop without libfribidi0 still runs pulsebar: polybar and the ANSI
// terminal view then get right-to-left titles in logical order (docs/WIDTHS.md says what that
// looks like). The one function pulsebar calls is declared here with FriBidi's own types
// (fribidi-types.h, fribidi-bidi-types.h of FriBidi 1.0, SONAME libfribidi.so.0), so building
// needs no FriBidi headers.
#define _GNU_SOURCE
#include "CFriBidi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

typedef uint32_t FriBidiChar;
typedef int FriBidiStrIndex;
typedef uint32_t FriBidiParType;
typedef signed char FriBidiLevel;
/// FRIBIDI_PAR_ON: the direction comes from the first strong character.
#define PAR_ON 0x00000040u
/// FRIBIDI_CHAR_FILL: what a ligature leaves where the character it consumed stood.
#define CHAR_FILL 0xFEFFu

typedef FriBidiLevel (*log2vis_function)(const FriBidiChar *, FriBidiStrIndex, FriBidiParType *,
                                         FriBidiChar *, FriBidiStrIndex *, FriBidiStrIndex *,
                                         FriBidiLevel *);

static struct {
  pthread_once_t once;
  char error[160];
  log2vis_function log2vis;
} fribidi = {.once = PTHREAD_ONCE_INIT};

static void load_fribidi(void) {
  void *handle = dlopen("libfribidi.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(fribidi.error, sizeof fribidi.error, "cannot load libfribidi.so.0 (%s)", dlerror());
    return;
  }
  fribidi.log2vis = (log2vis_function)dlsym(handle, "fribidi_log2vis");
  if (!fribidi.log2vis) snprintf(fribidi.error, sizeof fribidi.error, "cannot load fribidi_log2vis");
}

int pulsebar_bidi_visual(const uint32_t *text, int length, uint32_t *visual, char *error,
                         size_t error_size) {
  pthread_once(&fribidi.once, load_fribidi);
  if (fribidi.error[0]) {
    snprintf(error, error_size, "%s", fribidi.error);
    return -1;
  }
  if (length < 0 || length > PULSEBAR_BIDI_MAX) {
    snprintf(error, error_size, "a text of %d characters: over %d", length, PULSEBAR_BIDI_MAX);
    return -1;
  }
  if (length == 0) return 0;
  FriBidiChar shaped[PULSEBAR_BIDI_MAX];
  FriBidiParType direction = PAR_ON;
  if (fribidi.log2vis(text, length, &direction, shaped, NULL, NULL, NULL) == 0) {
    snprintf(error, error_size, "fribidi_log2vis failed");
    return -1;
  }
  int count = 0;
  for (int index = 0; index < length; index++) {
    if (shaped[index] != CHAR_FILL) visual[count++] = shaped[index];
  }
  return count;
}
