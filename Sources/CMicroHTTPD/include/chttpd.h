#ifndef SNAPMAP_CHTTPD_H
#define SNAPMAP_CHTTPD_H
#include <stddef.h>
#include <stdint.h>

/* An HTTP server over libmicrohttpd with a fixed-argument interface (MHD's start call is variadic, which
   Swift cannot call). Requests are answered synchronously on MHD's thread pool. */

typedef struct chttpd_server chttpd_server;
typedef struct chttpd_exchange chttpd_exchange;

/* Called once per request on a pool thread. `query` holds the decoded arguments as "key\x1Fvalue\x1E"
   records; `if_none_match` and `host` (the Host header) may be NULL. The handler answers with chttpd_respond (and optional headers added
   before it with chttpd_add_header). */
typedef void (*chttpd_handler)(void *context, chttpd_exchange *exchange, const char *method, const char *path,
                               const char *query, const char *if_none_match, const char *host);

/* Starts listening on host:port (port 0 picks a free one) with `threads` pool threads, closing connections
   idle for `timeout_seconds`, and limiting each connection's memory (and so the request line and headers)
   to `connection_memory` bytes. Returns NULL with a message in error. */
chttpd_server *chttpd_start(const char *host, uint16_t port, unsigned threads, unsigned timeout_seconds,
                            size_t connection_memory, unsigned connection_limit, chttpd_handler handler, void *context,
                            char *error, size_t error_size);

/* The port the server listens on. */
uint16_t chttpd_port(chttpd_server *server);

void chttpd_stop(chttpd_server *server);

/* Adds a response header; call before chttpd_respond. Returns 0, or -1 when the header is invalid. */
int chttpd_add_header(chttpd_exchange *exchange, const char *name, const char *value);

/* Queues the response; the body is copied. Returns 0, or -1 if it could not be queued. */
int chttpd_respond(chttpd_exchange *exchange, unsigned status, const uint8_t *body, size_t length);
#endif
