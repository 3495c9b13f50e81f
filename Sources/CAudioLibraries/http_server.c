// `pulsebar overlay`'s HTTP: GNU libmicrohttpd (Debian's libmicrohttpd12, what
// systemd-journal-gatewayd serves with), opened with dlopen on first use as libpulse is
// (audio_libraries.c), so the binary does not link it and the tarball's ELF floor stays. The
// parsing of requests is the library's; this file passes what it parsed to Swift (the
// `answer` callback decides) and turns the answer into a response. MHD_start_daemon takes
// variadic options, which Swift cannot call: that is why this is C.
#define _GNU_SOURCE
#include "CAudioLibraries.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#define HTTP_FUNCTIONS(F) \
  F(MHD_start_daemon) F(MHD_stop_daemon) F(MHD_lookup_connection_value) \
  F(MHD_create_response_from_buffer) F(MHD_create_response_from_callback) \
  F(MHD_add_response_header) F(MHD_queue_response) F(MHD_destroy_response) \
  F(MHD_get_connection_info)

#define POINTER(name) __typeof__(name) *name;
static struct {
  pthread_once_t once;
  char error[160];
  HTTP_FUNCTIONS(POINTER)
} http = {.once = PTHREAD_ONCE_INIT};
#undef POINTER

static void load_http(void) {
  void *handle = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(http.error, sizeof http.error, "cannot load libmicrohttpd.so.12 (%s)", dlerror());
    return;
  }
#define RESOLVE(name) \
  if (!http.error[0] && !(http.name = (__typeof__(name) *)dlsym(handle, #name))) \
    snprintf(http.error, sizeof http.error, "cannot load %s from libmicrohttpd.so.12", #name);
  HTTP_FUNCTIONS(RESOLVE)
#undef RESOLVE
}

/// One connection the header watchdog follows: since when it waits for a request's headers.
typedef struct {
  struct MHD_Connection *connection;
  int fd;
  struct timespec since;
  int waiting;
} watched_connection;

/// More than any connection limit the overlay sets.
#define WATCHED 256

struct pulsebar_http_server {
  pulsebar_http_options options;
  struct MHD_Daemon *daemon;
  // The header watchdog: libmicrohttpd's timeout counts silence, so a client that sends a byte
  // of its headers every few seconds (a slowloris) would hold its connection for good. Every
  // second this thread shuts down a connection whose request's headers have not all come
  // within header_seconds; the connection's own thread then closes it.
  pthread_mutex_t lock;
  pthread_cond_t stop;
  int stopping;
  pthread_t watchdog;
  watched_connection watched[WATCHED];
};

static struct timespec now(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return time;
}

static void *watch_headers(void *cls) {
  pulsebar_http_server *server = cls;
  pthread_mutex_lock(&server->lock);
  while (!server->stopping) {
    struct timespec wake;
    clock_gettime(CLOCK_REALTIME, &wake);
    wake.tv_sec += 1;
    pthread_cond_timedwait(&server->stop, &server->lock, &wake);
    struct timespec time = now();
    for (int index = 0; index < WATCHED; index++) {
      watched_connection *slot = &server->watched[index];
      if (!slot->connection || !slot->waiting) continue;
      if (time.tv_sec - slot->since.tv_sec < (time_t)server->options.header_seconds) continue;
      shutdown(slot->fd, SHUT_RDWR);
      slot->waiting = 0;
    }
  }
  pthread_mutex_unlock(&server->lock);
  return NULL;
}

/// A connection opened (watched from now) or closed (forgotten, before its socket is closed).
static void notify_connection(void *cls, struct MHD_Connection *connection,
                              void **socket_context, enum MHD_ConnectionNotificationCode code) {
  pulsebar_http_server *server = cls;
  pthread_mutex_lock(&server->lock);
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *info =
        http.MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    for (int index = 0; info && index < WATCHED; index++) {
      watched_connection *slot = &server->watched[index];
      if (slot->connection) continue;
      *slot = (watched_connection){connection, info->connect_fd, now(), 1};
      *socket_context = slot;
      break;
    }
  } else if (*socket_context) {
    ((watched_connection *)*socket_context)->connection = NULL;
    *socket_context = NULL;
  }
  pthread_mutex_unlock(&server->lock);
}

/// Whether `connection` waits for a request's headers (`waiting` 1, from now) or not.
static void set_waiting(pulsebar_http_server *server, struct MHD_Connection *connection,
                        int waiting) {
  const union MHD_ConnectionInfo *info =
      http.MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  if (!info || !info->socket_context) return;
  pthread_mutex_lock(&server->lock);
  watched_connection *slot = info->socket_context;
  slot->waiting = waiting;
  slot->since = now();
  pthread_mutex_unlock(&server->lock);
}

/// A request ended: the connection may wait for the next one's headers.
static void request_completed(void *cls, struct MHD_Connection *connection, void **state,
                              enum MHD_RequestTerminationCode code) {
  (void)state;
  (void)code;
  set_waiting(cls, connection, 1);
}

/// The stream's reader: one connection's thread, which may block there.
static ssize_t read_stream(void *cls, uint64_t position, char *buffer, size_t size) {
  (void)position;
  void **pair = cls;
  pulsebar_http_server *server = pair[0];
  long count = server->options.read_stream(server->options.context, pair[1], buffer, size);
  return count > 0 ? (ssize_t)count : MHD_CONTENT_READER_END_OF_STREAM;
}

static void end_stream(void *cls) {
  void **pair = cls;
  pulsebar_http_server *server = pair[0];
  server->options.end_stream(server->options.context, pair[1]);
  free(pair);
}

static void add_headers(struct MHD_Response *response, const pulsebar_http_answer *answer) {
  http.MHD_add_response_header(response, "Content-Type", answer->content_type);
  http.MHD_add_response_header(response, "Cache-Control", "no-store");
  http.MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
  http.MHD_add_response_header(response, "Referrer-Policy", "no-referrer");
  if (answer->allow) http.MHD_add_response_header(response, "Allow", answer->allow);
  if (answer->content_security_policy)
    http.MHD_add_response_header(response, "Content-Security-Policy",
                                 answer->content_security_policy);
}

/// Every request: what libmicrohttpd parsed goes to Swift's `answer`, its answer goes out.
static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **request_state) {
  (void)version;
  (void)upload_data;
  (void)upload_data_size;
  (void)request_state;
  pulsebar_http_server *server = cls;
  set_waiting(server, connection, 0);
  pulsebar_http_request request = {
      .method = method,
      .url = url,
      .host = http.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Host"),
      .fps = http.MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "fps"),
      .bars = http.MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "bars"),
  };
  pulsebar_http_answer answer = {.status = 500, .content_type = "text/plain; charset=utf-8"};
  server->options.answer(server->options.context, &request, &answer);
  struct MHD_Response *response;
  if (answer.stream) {
    void **pair = malloc(2 * sizeof(void *));
    if (!pair) {
      server->options.end_stream(server->options.context, answer.stream);
      return MHD_NO;
    }
    pair[0] = server;
    pair[1] = answer.stream;
    response = http.MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 8192, read_stream, pair,
                                                      end_stream);
    if (!response) {
      end_stream(pair);
      return MHD_NO;
    }
  } else {
    response = http.MHD_create_response_from_buffer(answer.body_size, (void *)answer.body,
                                                    MHD_RESPMEM_MUST_COPY);
    if (!response) return MHD_NO;
  }
  add_headers(response, &answer);
  enum MHD_Result queued = http.MHD_queue_response(connection, answer.status, response);
  http.MHD_destroy_response(response);
  return queued;
}

static void stop_watchdog(pulsebar_http_server *server) {
  pthread_mutex_lock(&server->lock);
  server->stopping = 1;
  pthread_cond_signal(&server->stop);
  pthread_mutex_unlock(&server->lock);
  pthread_join(server->watchdog, NULL);
}

pulsebar_http_server *pulsebar_http_start(const pulsebar_http_options *options, char *error,
                                          size_t error_size) {
  pthread_once(&http.once, load_http);
  if (http.error[0]) {
    snprintf(error, error_size, "%s", http.error);
    return NULL;
  }
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(options->port)};
  if (inet_pton(AF_INET, options->address, &address.sin_addr) != 1) {
    snprintf(error, error_size, "'%s' is not an IPv4 address", options->address);
    return NULL;
  }
  pulsebar_http_server *server = calloc(1, sizeof *server);
  if (!server) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  server->options = *options;
  pthread_mutex_init(&server->lock, NULL);
  pthread_cond_init(&server->stop, NULL);
  if (pthread_create(&server->watchdog, NULL, watch_headers, server) != 0) {
    snprintf(error, error_size, "cannot start the header watchdog");
    free(server);
    return NULL;
  }
  errno = 0;
  server->daemon = http.MHD_start_daemon(
      MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL_INTERNAL_THREAD, options->port, NULL, NULL,
      handle, server, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
      MHD_OPTION_CONNECTION_LIMIT, options->connection_limit, MHD_OPTION_CONNECTION_TIMEOUT,
      options->timeout_seconds, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
      MHD_OPTION_THREAD_STACK_SIZE, (size_t)(512 * 1024), MHD_OPTION_LISTENING_ADDRESS_REUSE,
      1u, MHD_OPTION_NOTIFY_CONNECTION, notify_connection, server,
      MHD_OPTION_NOTIFY_COMPLETED, request_completed, server, MHD_OPTION_END);
  if (!server->daemon) {
    int saved = errno;
    snprintf(error, error_size, "cannot listen on %s:%u (%s)", options->address,
             (unsigned)options->port, saved ? strerror(saved) : "libmicrohttpd refused");
    stop_watchdog(server);
    free(server);
    return NULL;
  }
  return server;
}

void pulsebar_http_stop(pulsebar_http_server *server) {
  if (!server) return;
  http.MHD_stop_daemon(server->daemon);
  stop_watchdog(server);
  free(server);
}
