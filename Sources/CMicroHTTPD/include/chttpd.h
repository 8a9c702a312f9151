#ifndef SNAPMAP_CHTTPD_H
#define SNAPMAP_CHTTPD_H
#include <stddef.h>
#include <stdint.h>

/* An HTTP server over libmicrohttpd with a fixed-argument interface (MHD's start call is variadic, which
   Swift cannot call). Requests are answered synchronously on MHD's thread pool; a response may instead be a
   stream (Server-Sent Events) that other threads write to. */

typedef struct chttpd_server chttpd_server;
typedef struct chttpd_exchange chttpd_exchange;
typedef struct chttpd_stream chttpd_stream;
typedef struct chttpd_pending chttpd_pending;

/* One request. `query` holds the decoded arguments as "key\x1Fvalue\x1E" records; header values may be
   NULL. `body` holds at most the server's body limit; `body_too_large` is set when the client sent more
   (the rest was discarded). */
typedef struct {
    const char *method;
    const char *path;
    const char *query;
    const char *if_none_match;
    const char *host;
    const char *authorization;
    const char *content_type;
    const char *accept_encoding;
    const uint8_t *body;
    size_t body_length;
    int body_too_large;
    /* The query was not passed on: an argument held a record separator, or there were more than
       CHTTPD_MAX_ARGUMENTS, or it was longer than CHTTPD_MAX_QUERY_BYTES. */
    int query_refused;
} chttpd_request;

#define CHTTPD_MAX_ARGUMENTS 64
#define CHTTPD_MAX_QUERY_BYTES 8192

/* Called once per request on a pool thread; it answers with chttpd_respond or chttpd_respond_stream (and
   headers added before either with chttpd_add_header). */
typedef void (*chttpd_handler)(void *context, chttpd_exchange *exchange, const chttpd_request *request);

/* What a server allows: `threads` pool threads; connections idle for `idle_timeout_seconds` are closed, and so are
   those that take longer than `request_timeout_seconds` to send a request's line and headers, or its body after
   them; each connection's memory (and so the request line and headers) is `connection_memory` bytes; at most
   `connection_limit` connections at once (`per_client_limit` from one client address); bodies of at most
   `body_limit` bytes. The port is the server's alone unless `reuse_port` (SO_REUSEPORT: servers share it). */
typedef struct {
    unsigned threads;
    unsigned idle_timeout_seconds;
    unsigned request_timeout_seconds;
    size_t connection_memory;
    unsigned connection_limit;
    unsigned per_client_limit;
    size_t body_limit;
    int reuse_port;
} chttpd_limits;

/* Whether `host` is an IPv4 or IPv6 address the server can listen on. */
int chttpd_valid_host(const char *host);

/* Starts listening on host:port (port 0 picks a free one) within `limits`. Returns NULL with a message in error. */
chttpd_server *chttpd_start(const char *host, uint16_t port, const chttpd_limits *limits, chttpd_handler handler, void *context,
                            char *error, size_t error_size);

/* The port the server listens on. */
uint16_t chttpd_port(chttpd_server *server);

/* Stops the server within `grace_ms`: stops accepting (later connections are refused), ends every open stream,
   lets the requests in flight finish (answers close their connections meanwhile), then closes every connection
   and frees the server. Returns how many requests were still unfinished at the bound (they are cut); when an
   answer was still deferred then, the daemons are left running and the server is not freed (MHD cannot stop
   with a suspended connection). */
int chttpd_stop(chttpd_server *server, unsigned grace_ms);

/* Adds a response header; call before responding. Returns 0, or -1 when the header is invalid. */
int chttpd_add_header(chttpd_exchange *exchange, const char *name, const char *value);

/* Queues the response; the body is copied. Returns 0, or -1 if it could not be queued. */
int chttpd_respond(chttpd_exchange *exchange, unsigned status, const uint8_t *body, size_t length);

/* Answers with a stream that stays open until the client leaves, the server stops, or chttpd_stream_end.
   Returns the stream (the caller owns one reference: release it with chttpd_stream_release), or NULL. */
chttpd_stream *chttpd_respond_stream(chttpd_exchange *exchange, unsigned status);

/* Defers the answer: the connection waits (no thread does) until chttpd_complete, which any thread calls exactly
   once. Headers added with chttpd_add_header before this call are dropped: add them with chttpd_pending_header.
   Returns NULL when it cannot (the server has closed: the connection is then closed unanswered). */
chttpd_pending *chttpd_defer(chttpd_exchange *exchange);

/* Adds a header to a deferred answer; call before chttpd_complete. Returns 0, or -1 when invalid. */
int chttpd_pending_header(chttpd_pending *pending, const char *name, const char *value);

/* Whether the client of a deferred answer has closed its connection (or it failed): 1 when the answer would go
   nowhere, 0 otherwise. MHD does not watch a suspended connection, so this peeks at its socket. */
int chttpd_pending_client_left(chttpd_pending *pending);

/* Calls `ended(context)` once when the deferred request ends: its answer sent to the end, or its connection gone
   (never, when chttpd_defer's server stops with it unanswered). Call before chttpd_complete. */
void chttpd_pending_on_end(chttpd_pending *pending, void (*ended)(void *context), void *context);

/* Sends a deferred answer (the body is copied); the pending answer must not be used after. */
void chttpd_complete(chttpd_pending *pending, unsigned status, const uint8_t *body, size_t length);

/* Appends bytes to a stream; returns 0, or -1 when the stream has ended (the client left) or is backed up
   past its buffer limit (it is then ended). Safe from any thread. */
int chttpd_stream_send(chttpd_stream *stream, const uint8_t *data, size_t length);

/* Ends a stream after what was sent so far. */
void chttpd_stream_end(chttpd_stream *stream);

/* Drops the caller's reference. */
void chttpd_stream_release(chttpd_stream *stream);
#endif
