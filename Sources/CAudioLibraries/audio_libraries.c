// libpulse and libsndfile, opened with dlopen on first use rather than linked.
//
// Each function pulsebar calls is defined here under its own name and forwards to the
// library's through a pointer found with dlsym, so the Swift code calls them as before. Why:
// libpulse's libpulsecommon links libsndfile and, through it, the FLAC, Vorbis, Opus, mpg123
// and LAME codecs, plus libX11 and libdbus; their relocated data pages are private to each
// process (unique memory). Native PipeWire capture needs none of them, and a desktop
// without libpulse0 can still run pulsebar there.
#define _GNU_SOURCE
#include "CAudioLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pulse/pulseaudio.h>
#include <sndfile.h>

// VALUE(return type, name, parameters, arguments) for a function that returns a value,
// VOID(...) for one that returns nothing.
#define PULSE_FUNCTIONS(VALUE, VOID) \
  VALUE(int, pa_context_connect, (pa_context *a0, const char *a1, pa_context_flags_t a2, const pa_spawn_api *a3), (a0, a1, a2, a3)) \
  VOID(void, pa_context_disconnect, (pa_context *a0), (a0)) \
  VALUE(int, pa_context_errno, (const pa_context *a0), (a0)) \
  VALUE(pa_operation *, pa_context_get_server_info, (pa_context *a0, pa_server_info_cb_t a1, void *a2), (a0, a1, a2)) \
  VALUE(pa_operation *, pa_context_get_sink_info_by_name, (pa_context *a0, const char *a1, pa_sink_info_cb_t a2, void *a3), (a0, a1, a2, a3)) \
  VALUE(pa_operation *, pa_context_get_sink_input_info, (pa_context *a0, uint32_t a1, pa_sink_input_info_cb_t a2, void *a3), (a0, a1, a2, a3)) \
  VALUE(pa_operation *, pa_context_get_sink_input_info_list, (pa_context *a0, pa_sink_input_info_cb_t a1, void *a2), (a0, a1, a2)) \
  VALUE(pa_operation *, pa_context_get_source_info_by_name, (pa_context *a0, const char *a1, pa_source_info_cb_t a2, void *a3), (a0, a1, a2, a3)) \
  VALUE(pa_context_state_t, pa_context_get_state, (const pa_context *a0), (a0)) \
  VALUE(pa_context *, pa_context_new, (pa_mainloop_api *a0, const char *a1), (a0, a1)) \
  VOID(void, pa_context_set_state_callback, (pa_context *a0, pa_context_notify_cb_t a1, void *a2), (a0, a1, a2)) \
  VOID(void, pa_context_set_subscribe_callback, (pa_context *a0, pa_context_subscribe_cb_t a1, void *a2), (a0, a1, a2)) \
  VALUE(pa_operation *, pa_context_subscribe, (pa_context *a0, pa_subscription_mask_t a1, pa_context_success_cb_t a2, void *a3), (a0, a1, a2, a3)) \
  VOID(void, pa_context_unref, (pa_context *a0), (a0)) \
  VALUE(int, pa_mainloop_dispatch, (pa_mainloop *a0), (a0)) \
  VOID(void, pa_mainloop_free, (pa_mainloop *a0), (a0)) \
  VALUE(pa_mainloop_api *, pa_mainloop_get_api, (pa_mainloop *a0), (a0)) \
  VALUE(pa_mainloop *, pa_mainloop_new, (void), ()) \
  VALUE(int, pa_mainloop_poll, (pa_mainloop *a0), (a0)) \
  VALUE(int, pa_mainloop_prepare, (pa_mainloop *a0, int a1), (a0, a1)) \
  VOID(void, pa_mainloop_set_poll_func, (pa_mainloop *a0, pa_poll_func a1, void *a2), (a0, a1, a2)) \
  VALUE(pa_operation_state_t, pa_operation_get_state, (const pa_operation *a0), (a0)) \
  VOID(void, pa_operation_unref, (pa_operation *a0), (a0)) \
  VOID(void, pa_proplist_free, (pa_proplist *a0), (a0)) \
  VALUE(const char *, pa_proplist_gets, (const pa_proplist *a0, const char *a1), (a0, a1)) \
  VALUE(pa_proplist *, pa_proplist_new, (void), ()) \
  VALUE(int, pa_proplist_sets, (pa_proplist *a0, const char *a1, const char *a2), (a0, a1, a2)) \
  VALUE(int, pa_stream_connect_playback, (pa_stream *a0, const char *a1, const pa_buffer_attr *a2, pa_stream_flags_t a3, const pa_cvolume *a4, pa_stream *a5), (a0, a1, a2, a3, a4, a5)) \
  VALUE(int, pa_stream_connect_record, (pa_stream *a0, const char *a1, const pa_buffer_attr *a2, pa_stream_flags_t a3), (a0, a1, a2, a3)) \
  VALUE(pa_operation *, pa_stream_cork, (pa_stream *a0, int a1, pa_stream_success_cb_t a2, void *a3), (a0, a1, a2, a3)) \
  VALUE(int, pa_stream_disconnect, (pa_stream *a0), (a0)) \
  VALUE(int, pa_stream_drop, (pa_stream *a0), (a0)) \
  VALUE(const char *, pa_stream_get_device_name, (const pa_stream *a0), (a0)) \
  VALUE(pa_stream_state_t, pa_stream_get_state, (const pa_stream *a0), (a0)) \
  VALUE(pa_stream *, pa_stream_new, (pa_context *a0, const char *a1, const pa_sample_spec *a2, const pa_channel_map *a3), (a0, a1, a2, a3)) \
  VALUE(pa_stream *, pa_stream_new_with_proplist, (pa_context *a0, const char *a1, const pa_sample_spec *a2, const pa_channel_map *a3, pa_proplist *a4), (a0, a1, a2, a3, a4)) \
  VALUE(int, pa_stream_peek, (pa_stream *a0, const void * *a1, size_t *a2), (a0, a1, a2)) \
  VALUE(int, pa_stream_set_monitor_stream, (pa_stream *a0, uint32_t a1), (a0, a1)) \
  VALUE(pa_operation *, pa_stream_set_buffer_attr, (pa_stream *a0, const pa_buffer_attr *a1, pa_stream_success_cb_t a2, void *a3), (a0, a1, a2, a3)) \
  VOID(void, pa_stream_set_moved_callback, (pa_stream *a0, pa_stream_notify_cb_t a1, void *a2), (a0, a1, a2)) \
  VOID(void, pa_stream_set_read_callback, (pa_stream *a0, pa_stream_request_cb_t a1, void *a2), (a0, a1, a2)) \
  VOID(void, pa_stream_set_state_callback, (pa_stream *a0, pa_stream_notify_cb_t a1, void *a2), (a0, a1, a2)) \
  VOID(void, pa_stream_set_write_callback, (pa_stream *a0, pa_stream_request_cb_t a1, void *a2), (a0, a1, a2)) \
  VOID(void, pa_stream_unref, (pa_stream *a0), (a0)) \
  VALUE(int, pa_stream_write, (pa_stream *a0, const void *a1, size_t a2, pa_free_cb_t a3, int64_t a4, pa_seek_mode_t a5), (a0, a1, a2, a3, a4, a5)) \
  VALUE(const char *, pa_strerror, (int a0), (a0)) \
  VOID(void, pa_threaded_mainloop_free, (pa_threaded_mainloop *a0), (a0)) \
  VALUE(pa_mainloop_api *, pa_threaded_mainloop_get_api, (pa_threaded_mainloop *a0), (a0)) \
  VALUE(int, pa_threaded_mainloop_in_thread, (pa_threaded_mainloop *a0), (a0)) \
  VOID(void, pa_threaded_mainloop_lock, (pa_threaded_mainloop *a0), (a0)) \
  VALUE(pa_threaded_mainloop *, pa_threaded_mainloop_new, (void), ()) \
  VALUE(int, pa_threaded_mainloop_start, (pa_threaded_mainloop *a0), (a0)) \
  VOID(void, pa_threaded_mainloop_stop, (pa_threaded_mainloop *a0), (a0)) \
  VOID(void, pa_threaded_mainloop_unlock, (pa_threaded_mainloop *a0), (a0)) \
  VALUE(struct timeval *, pa_timeval_add, (struct timeval *a0, pa_usec_t a1), (a0, a1))

#define SNDFILE_FUNCTIONS(VALUE, VOID) \
  VALUE(SNDFILE *, sf_open, (const char *a0, int a1, SF_INFO *a2), (a0, a1, a2)) \
  VALUE(int, sf_close, (SNDFILE *a0), (a0)) \
  VALUE(int, sf_command, (SNDFILE *a0, int a1, void *a2, int a3), (a0, a1, a2, a3)) \
  VALUE(sf_count_t, sf_readf_float, (SNDFILE *a0, float *a1, sf_count_t a2), (a0, a1, a2)) \
  VALUE(const char *, sf_strerror, (SNDFILE *a0), (a0))

/// A library and its functions: the handle, the error that kept it from loading, and one
/// pointer per function.
#define POINTER(type, name, parameters, arguments) __typeof__(name) *name;
static struct {
  pthread_once_t once;
  const char *error;
  PULSE_FUNCTIONS(POINTER, POINTER)
} pulse = {.once = PTHREAD_ONCE_INIT};
static struct {
  pthread_once_t once;
  const char *error;
  SNDFILE_FUNCTIONS(POINTER, POINTER)
} sndfile = {.once = PTHREAD_ONCE_INIT};
#undef POINTER

/// The loader's message, copied: dlerror's buffer is reused by the next call.
static const char *copy_error(const char *library, const char *detail) {
  char *message = NULL;
  if (asprintf(&message, "cannot load %s (%s)", library, detail ? detail : "unknown error") < 0)
    return "cannot load a library (out of memory)";
  return message;
}

#define RESOLVE(library, type, name, parameters, arguments) \
  if (!library.error) { \
    library.name = (__typeof__(name) *)dlsym(handle, #name); \
    if (!library.name) library.error = copy_error(file, dlerror()); \
  }
#define RESOLVE_PULSE(type, name, parameters, arguments) \
  RESOLVE(pulse, type, name, parameters, arguments)
#define RESOLVE_SNDFILE(type, name, parameters, arguments) \
  RESOLVE(sndfile, type, name, parameters, arguments)

/// dlopen's `file`, or NULL with `*error` set to the loader's message.
static void *open_library(const char *file, const char **error) {
  void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (!handle) *error = copy_error(file, dlerror());
  return handle;
}

static void load_pulse(void) {
  const char *file = "libpulse.so.0";
  void *handle = open_library(file, &pulse.error);
  if (handle) { PULSE_FUNCTIONS(RESOLVE_PULSE, RESOLVE_PULSE) }
}

static void load_sndfile(void) {
  const char *file = "libsndfile.so.1";
  void *handle = open_library(file, &sndfile.error);
  if (handle) { SNDFILE_FUNCTIONS(RESOLVE_SNDFILE, RESOLVE_SNDFILE) }
}

const char *pulsebar_open_libpulse(void) {
  pthread_once(&pulse.once, load_pulse);
  return pulse.error;
}

const char *pulsebar_open_libsndfile(void) {
  pthread_once(&sndfile.once, load_sndfile);
  return sndfile.error;
}

/// A forwarder called before its library was opened, or after it failed to: a programming
/// error (callers open the library first and report its error), so it stops with a message.
static void missing(const char *name, const char *error) {
  fprintf(stderr, "pulsebar: %s called without its library: %s\n", name,
          error ? error : "the library was never opened");
  abort();
}

#define FORWARD_VALUE(library, type, name, parameters, arguments) \
  type name parameters { \
    if (!library.name) missing(#name, library.error); \
    return library.name arguments; \
  }
#define FORWARD_VOID(library, type, name, parameters, arguments) \
  void name parameters { \
    if (!library.name) missing(#name, library.error); \
    library.name arguments; \
  }
#define PULSE_VALUE(type, name, parameters, arguments) \
  FORWARD_VALUE(pulse, type, name, parameters, arguments)
#define PULSE_VOID(type, name, parameters, arguments) \
  FORWARD_VOID(pulse, type, name, parameters, arguments)
#define SNDFILE_VALUE(type, name, parameters, arguments) \
  FORWARD_VALUE(sndfile, type, name, parameters, arguments)
#define SNDFILE_VOID(type, name, parameters, arguments) \
  FORWARD_VOID(sndfile, type, name, parameters, arguments)

PULSE_FUNCTIONS(PULSE_VALUE, PULSE_VOID)
SNDFILE_FUNCTIONS(SNDFILE_VALUE, SNDFILE_VOID)
