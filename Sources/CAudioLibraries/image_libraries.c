// Album-art decoding (`colors.from_art`): TurboJPEG and libpng's simplified API, opened with
// dlopen on first use as libpulse is (audio_libraries.c), so the binary links neither and a
// desktop without them still runs pulsebar (art colours then fall back to the config's).
// Both APIs return errors rather than longjmp out of the caller.
#define _GNU_SOURCE
#include "CAudioLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <turbojpeg.h>

#define JPEG_FUNCTIONS(F) \
  F(tjInitDecompress) F(tjDecompressHeader3) F(tjGetScalingFactors) F(tjDecompress2) \
  F(tjDestroy) F(tjGetErrorStr2) F(tjGetErrorCode)
#define PNG_FUNCTIONS(F) \
  F(png_image_begin_read_from_memory) F(png_image_finish_read) F(png_image_free)

#define POINTER(name) __typeof__(name) *name;
static struct {
  pthread_once_t once;
  char error[160];
  JPEG_FUNCTIONS(POINTER)
} jpeg = {.once = PTHREAD_ONCE_INIT};
static struct {
  pthread_once_t once;
  char error[160];
  PNG_FUNCTIONS(POINTER)
} png = {.once = PTHREAD_ONCE_INIT};
#undef POINTER

/// Opens `file` and finds each function; on failure `error` holds the loader's message.
#define LOAD(library, file, FUNCTIONS) \
  do { \
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL); \
    if (!handle) { \
      snprintf(library.error, sizeof library.error, "cannot load %s (%s)", file, dlerror()); \
      break; \
    } \
    FUNCTIONS(RESOLVE) \
  } while (0)
#define RESOLVE(name) \
  if (!library_error[0] && !(target->name = (__typeof__(name) *)dlsym(handle, #name))) \
    snprintf(library_error, sizeof target->error, "cannot load %s", #name);

static void load_jpeg(void) {
  __typeof__(&jpeg) target = &jpeg;
  char *library_error = jpeg.error;
  LOAD(jpeg, "libturbojpeg.so.0", JPEG_FUNCTIONS);
}

static void load_png(void) {
  __typeof__(&png) target = &png;
  char *library_error = png.error;
  LOAD(png, "libpng16.so.16", PNG_FUNCTIONS);
}

static int fail(char *error, size_t error_size, const char *message) {
  snprintf(error, error_size, "%s", message);
  return -1;
}

/// The smallest TurboJPEG scaling whose output keeps at least `target` px on its shorter side.
static tjscalingfactor jpeg_scale(int width, int height, int target) {
  int count = 0;
  tjscalingfactor *factors = jpeg.tjGetScalingFactors(&count);
  tjscalingfactor best = {1, 1};
  int shorter = width < height ? width : height;
  for (int index = 0; factors && index < count; index++) {
    tjscalingfactor factor = factors[index];
    if (TJSCALED(shorter, factor) < target) continue;
    if ((long)factor.num * best.denom < (long)best.num * factor.denom) best = factor;
  }
  return best;
}

/// What a JPEG's frame header says about the memory its decode holds: the coefficients of every
/// component at once when the image is progressive or its first scan leaves components out
/// (libjpeg buffers the whole image then, whatever the scaling), else 0 (it decodes a row of
/// blocks at a time). -1: no frame or scan header where one is due.
static long long jpeg_buffered_bytes(const unsigned char *data, size_t size) {
  size_t at = 2;
  int progressive = 0, components = 0, buffered = 0;
  long long width = 0, height = 0, blocks = 0;
  int horizontal[4] = {0}, vertical[4] = {0}, widest = 1, tallest = 1;
  while (at + 4 <= size) {
    if (data[at] != 0xFF) return -1;
    unsigned char marker = data[at + 1];
    if (marker == 0xFF) {
      at++;
      continue;
    }
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {
      at += 2;
      continue;
    }
    size_t length = ((size_t)data[at + 2] << 8) | data[at + 3];
    if (length < 2 || at + 2 + length > size) return -1;
    const unsigned char *segment = data + at + 4;
    int frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
                marker != 0xCC;
    if (frame) {
      if (length < 8) return -1;
      progressive = (marker & 3) == 2;
      height = ((long long)segment[1] << 8) | segment[2];
      width = ((long long)segment[3] << 8) | segment[4];
      components = segment[5];
      if (components < 1 || components > 4 || length < 8 + 3 * (size_t)components) return -1;
      for (int index = 0; index < components; index++) {
        horizontal[index] = segment[7 + 3 * index] >> 4;
        vertical[index] = segment[7 + 3 * index] & 15;
        if (horizontal[index] < 1 || vertical[index] < 1) return -1;
        if (horizontal[index] > widest) widest = horizontal[index];
        if (vertical[index] > tallest) tallest = vertical[index];
      }
    } else if (marker == 0xDA) {
      if (!components) return -1;
      buffered = progressive || segment[0] < components;
      break;
    }
    at += 2 + length;
  }
  if (!components) return -1;
  if (!buffered) return 0;
  for (int index = 0; index < components; index++) {
    long long across = (width * horizontal[index] + widest * 8 - 1) / (widest * 8);
    long long down = (height * vertical[index] + tallest * 8 - 1) / (tallest * 8);
    across = (across + horizontal[index] - 1) / horizontal[index] * horizontal[index];
    down = (down + vertical[index] - 1) / vertical[index] * vertical[index];
    blocks += across * down;
  }
  return blocks * 64 * 2;
}

static int decode_jpeg(const unsigned char *data, size_t size, const pulsebar_image_limits *limits,
                       pulsebar_image *image, char *error, size_t error_size) {
  pthread_once(&jpeg.once, load_jpeg);
  if (jpeg.error[0]) return fail(error, error_size, jpeg.error);
  tjhandle handle = jpeg.tjInitDecompress();
  if (!handle) return fail(error, error_size, "cannot start the JPEG decoder");
  int width = 0, height = 0, subsampling = 0, colorspace = 0, result = -1;
  if (jpeg.tjDecompressHeader3(handle, data, (unsigned long)size, &width, &height, &subsampling,
                               &colorspace) != 0) {
    snprintf(error, error_size, "not a readable JPEG (%s)", jpeg.tjGetErrorStr2(handle));
  } else if (width <= 0 || height <= 0 || width > limits->max_side || height > limits->max_side) {
    snprintf(error, error_size, "%dx%d px: over %d px a side", width, height, limits->max_side);
  } else {
    tjscalingfactor factor = jpeg_scale(width, height, limits->target_side);
    int scaled_width = TJSCALED(width, factor), scaled_height = TJSCALED(height, factor);
    long long buffered = jpeg_buffered_bytes(data, size);
    long long working = buffered + (long long)scaled_width * scaled_height * 3;
    unsigned char *pixels = NULL;
    if (buffered < 0) {
      fail(error, error_size, "not a readable JPEG (no frame header)");
    } else if (working > (long long)limits->max_working_bytes) {
      snprintf(error, error_size, "%dx%d px %s JPEG: %lld MB to decode, over %zu MB", width, height,
               buffered ? "progressive or multi-scan" : "scaled", working >> 20,
               limits->max_working_bytes >> 20);
    } else if (!(pixels = malloc((size_t)scaled_width * (size_t)scaled_height * 3))) {
      fail(error, error_size, "out of memory");
    } else if (jpeg.tjDecompress2(handle, data, (unsigned long)size, pixels, scaled_width, 0,
                                  scaled_height, TJPF_RGB,
                                  TJFLAG_FASTDCT | TJFLAG_STOPONWARNING) != 0) {
      snprintf(error, error_size, "a broken JPEG (%s)", jpeg.tjGetErrorStr2(handle));
      free(pixels);
    } else {
      *image = (pulsebar_image){pixels, scaled_width, scaled_height};
      result = 0;
    }
  }
  jpeg.tjDestroy(handle);
  return result;
}

static int decode_png(const unsigned char *data, size_t size, const pulsebar_image_limits *limits,
                      pulsebar_image *image, char *error, size_t error_size) {
  pthread_once(&png.once, load_png);
  if (png.error[0]) return fail(error, error_size, png.error);
  png_image header;
  memset(&header, 0, sizeof header);
  header.version = PNG_IMAGE_VERSION;
  if (!png.png_image_begin_read_from_memory(&header, data, size)) {
    snprintf(error, error_size, "not a readable PNG (%s)", header.message);
    png.png_image_free(&header);
    return -1;
  }
  long width = header.width, height = header.height;
  if (width > limits->max_side || height > limits->max_side) {
    snprintf(error, error_size, "%ldx%ld px: over %d px a side", width, height, limits->max_side);
    png.png_image_free(&header);
    return -1;
  }
  if ((size_t)width * (size_t)height * 3 > limits->max_working_bytes) {
    snprintf(error, error_size, "%ldx%ld px PNG: %zu MB to decode, over %zu MB", width, height,
             ((size_t)width * (size_t)height * 3) >> 20, limits->max_working_bytes >> 20);
    png.png_image_free(&header);
    return -1;
  }
  header.format = PNG_FORMAT_RGB;
  unsigned char *pixels = malloc(PNG_IMAGE_SIZE(header));
  if (!pixels) {
    png.png_image_free(&header);
    return fail(error, error_size, "out of memory");
  }
  if (!png.png_image_finish_read(&header, NULL, pixels, 0, NULL)) {
    snprintf(error, error_size, "a broken PNG (%s)", header.message);
    png.png_image_free(&header);
    free(pixels);
    return -1;
  }
  *image = (pulsebar_image){pixels, (int)width, (int)height};
  return 0;
}

int pulsebar_decode_image(const unsigned char *data, size_t size,
                          const pulsebar_image_limits *limits, pulsebar_image *image, char *error,
                          size_t error_size) {
  *image = (pulsebar_image){NULL, 0, 0};
  static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (size > limits->max_bytes) return fail(error, error_size, "over the size limit");
  if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF)
    return decode_jpeg(data, size, limits, image, error, error_size);
  if (size >= 8 && memcmp(data, png_signature, 8) == 0)
    return decode_png(data, size, limits, image, error, error_size);
  return fail(error, error_size, "neither a JPEG nor a PNG");
}

void pulsebar_image_free(pulsebar_image *image) {
  free(image->pixels);
  *image = (pulsebar_image){NULL, 0, 0};
}
