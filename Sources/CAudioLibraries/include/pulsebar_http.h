#ifndef PULSEBAR_HTTP_H
#define PULSEBAR_HTTP_H

// `pulsebar overlay`'s HTTP server: GNU libmicrohttpd, opened with dlopen on first use as
// libpulse is (http_server.c), one thread per connection, bound to one IPv4 address.

#include <stddef.h>

/// What libmicrohttpd handed over for one request; every field may be NULL but method and url.
typedef struct {
  const char *method;
  const char *url;
  const char *host;
  const char *fps;
  const char *bars;
} pulsebar_http_request;

/// The answer: a status with a body (copied), or an event stream when `stream` is set.
typedef struct {
  unsigned status;
  const char *content_type;
  const char *body;
  size_t body_size;
  /// Set by the answer callback: `read_stream` and `end_stream` get it back.
  void *stream;
  /// The `Allow` header of a 405, else NULL.
  const char *allow;
  /// The page's `Content-Security-Policy`, else NULL.
  const char *content_security_policy;
} pulsebar_http_answer;

/// The server's callbacks and limits.
typedef struct {
  void *context;
  /// Fills `answer` for `request` (any thread; one call per request).
  void (*answer)(void *context, const pulsebar_http_request *request,
                 pulsebar_http_answer *answer);
  /// Writes up to `size` bytes of the stream into `buffer`: the count (> 0), or -1 to end it.
  /// Runs on the connection's own thread and may block (a second at most).
  long (*read_stream)(void *context, void *stream, char *buffer, size_t size);
  /// The stream's connection is gone: free it.
  void (*end_stream)(void *context, void *stream);
  /// An IPv4 address (dotted quad) and a port.
  const char *address;
  unsigned short port;
  unsigned connection_limit;
  /// A connection silent this long is closed.
  unsigned timeout_seconds;
  /// A request whose headers have not all come this long after it started is cut off.
  unsigned header_seconds;
} pulsebar_http_options;

typedef struct pulsebar_http_server pulsebar_http_server;

/// Opens libmicrohttpd.so.12 and serves; NULL with a one-line reason in `error`.
pulsebar_http_server *pulsebar_http_start(const pulsebar_http_options *options, char *error,
                                          size_t error_size);

/// The overlay's page (overlay/index.html, built in) and its size in bytes.
const unsigned char *pulsebar_overlay_page(size_t *size);

/// Stops serving (waits for each connection's thread) and frees the server.
void pulsebar_http_stop(pulsebar_http_server *server);

#endif
