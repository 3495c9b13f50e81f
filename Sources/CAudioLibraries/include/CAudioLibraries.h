#ifndef PULSEBAR_AUDIO_LIBRARIES_H
#define PULSEBAR_AUDIO_LIBRARIES_H

// libpulse and libsndfile are opened on first use (audio_libraries.c says why). Call the
// opener before the library's first function: it returns NULL once the library is loaded,
// or a one-line message naming what is missing. Safe from any thread; it loads once.

/// Opens libpulse.so.0 (every pa_* function pulsebar calls).
const char *pulsebar_open_libpulse(void);

/// Opens libsndfile.so.1 (every sf_* function pulsebar calls).
const char *pulsebar_open_libsndfile(void);

#include <stddef.h>

/// What an album-art decode may take: the file's bytes, the pixels a side, the memory the
/// decoder may hold besides the bytes (a PNG's pixels at full size, a progressive or multi-scan
/// JPEG's coefficients, a JPEG's scaled pixels: all known from the header, before decoding),
/// and the shorter side a JPEG is scaled down to (not below).
typedef struct {
  size_t max_bytes;
  int max_side;
  size_t max_working_bytes;
  int target_side;
} pulsebar_image_limits;

/// Decoded pixels, 3 bytes each (red, green, blue), row after row; free with
/// pulsebar_image_free.
typedef struct {
  unsigned char *pixels;
  int width;
  int height;
} pulsebar_image;

/// Decodes a JPEG (TurboJPEG, scaled down) or a PNG (libpng's simplified API) in memory. 0 and
/// `image` filled, or -1 with a one-line reason in `error` (not an image, over a limit,
/// truncated or corrupt, the library missing). Opens each library on first use; any thread.
int pulsebar_decode_image(const unsigned char *data, size_t size,
                          const pulsebar_image_limits *limits, pulsebar_image *image, char *error,
                          size_t error_size);

/// Frees what pulsebar_decode_image returned.
void pulsebar_image_free(pulsebar_image *image);

#include "pulsebar_http.h"

#endif
