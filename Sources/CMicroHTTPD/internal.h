#ifndef SNAPMAP_CHTTPD_INTERNAL_H
#define SNAPMAP_CHTTPD_INTERNAL_H
#include "chttpd.h"
#include <microhttpd.h>
#include <pthread.h>
#include <sys/socket.h>

/* What the server and its streams share: the open streams, so that stopping can end them (MHD refuses to
   stop with suspended connections). */
#define CHTTPD_MAX_THREADS 256

typedef struct chttpd_watched chttpd_watched;

struct chttpd_server {
    struct MHD_Daemon *daemons[CHTTPD_MAX_THREADS];
    unsigned daemon_count;
    chttpd_handler handler;
    void *context;
    size_t body_limit;
    /* The one listening socket and the thread that hands its connections to the daemons (listen.c). */
    int listen_fd;
    pthread_t acceptor;
    int accepting, accept_stopping;
    unsigned next_daemon;
    pthread_mutex_t streams_lock;
    chttpd_stream *streams;
    /* Guarded by streams_lock: deferred answers not yet sent; requests between their headers and the end of
       their answer; stopping (new streams start ended, answers close their connection); closed (no request
       starts and no answer is deferred any more, so no connection can be suspended when the daemons stop). */
    int deferred;
    int in_flight;
    int stopping, closed;
    /* Request deadlines (deadline.c): the open connections, guarded by watch_lock, and their watchdog. */
    int64_t request_timeout_ms;
    pthread_mutex_t watch_lock;
    pthread_cond_t watch_wake;
    pthread_t watchdog;
    int watch_stopping;
    chttpd_watched *watched;
};

/* An answer's own headers, copied as the handler adds them, until the answer is queued (headers.c). */
#define CHTTPD_MAX_HEADERS 16
typedef struct {
    int count;
    char *names[CHTTPD_MAX_HEADERS];
    char *values[CHTTPD_MAX_HEADERS];
} chttpd_headers;

/* Copies `name: value` in; returns 0, or -1 when the list is full or either is NULL. */
int chttpd_headers_add(chttpd_headers *headers, const char *name, const char *value);

/* Adds the headers to `response`, and `Connection: close` once the server is stopping. */
void chttpd_headers_apply(const chttpd_headers *headers, chttpd_server *server, struct MHD_Response *response);

/* Frees the copies. */
void chttpd_headers_free(chttpd_headers *headers);

/* What a request carries between MHD's calls: its body so far, and its deferred answer once it has one. */
typedef struct {
    uint8_t *body;
    size_t length;
    int too_large;
    int query_refused; /* the query was cut before MHD parsed it (query.c) */
    int started;       /* the handler has seen the headers: the request counts as in flight */
    chttpd_pending *pending;
    /* Called once when the request ends (its answer sent, or the connection gone), if set. */
    void (*ended)(void *context);
    void *ended_context;
} request_state;

/* Queues a deferred answer that is ready (MHD calls the handler again after the connection is resumed). */
enum MHD_Result chttpd_finish_deferred(struct MHD_Connection *connection, request_state *state);

/* The exchange's fields deferred.c needs (its layout is private to chttpd.c). */
chttpd_server *chttpd_exchange_server(chttpd_exchange *exchange);
struct MHD_Connection *chttpd_exchange_connection(chttpd_exchange *exchange);
request_state *chttpd_exchange_state(chttpd_exchange *exchange);
void chttpd_exchange_mark_answered(chttpd_exchange *exchange);

/* Frees a request's deferred answer, if any. */
void chttpd_free_pending(request_state *state);

struct chttpd_stream {
    pthread_mutex_t lock;
    chttpd_server *server;
    struct MHD_Connection *connection;
    chttpd_stream *next, *previous;
    char *buffer;
    size_t length, capacity;
    /* overflowed: the client read too slowly and the stream was dropped (its connection closes with an error). */
    int ended, suspended, references, overflowed;
};

/* Creates the MHD response of a new stream (one reference for MHD, one for the caller). */
struct MHD_Response *chttpd_stream_response(chttpd_server *server, struct MHD_Connection *connection, chttpd_stream **created);

/* Ends every stream of a server (before MHD_stop_daemon). */
void chttpd_end_streams(chttpd_server *server);

/* Fills `address` with host (an IPv4 or IPv6 address) and port; returns 0, or -1 when host is neither. */
int chttpd_address(const char *host, uint16_t port, struct sockaddr_storage *address, socklen_t *length);

/* Stops the daemons and the watchdog and frees the server (stop.c); no connection may be suspended. */
void chttpd_free_server(chttpd_server *server);

/* Opens the listening socket (bound exclusively unless `reuse_port`) and starts the thread that hands its
   connections to the daemons; returns 0, or -1 with a message in error. */
int chttpd_listen(chttpd_server *server, const struct sockaddr *address, socklen_t length, int reuse_port, char *error, size_t error_size);

/* Stops accepting: the socket is shut down (later connections are refused) and the thread joined. */
void chttpd_stop_listening(chttpd_server *server);

/* MHD's URI callback: makes the request's state and cuts a query that has too many parameters or is too long,
   before MHD parses it into the connection's memory. */
void *chttpd_check_query(void *cls, const char *uri, struct MHD_Connection *connection);

/* Adds `Connection: close` to an answer once the server is stopping (kept-alive connections end with it). */
void chttpd_close_when_stopping(chttpd_server *server, struct MHD_Response *response);

/* Starts and stops a server's watchdog; start returns 0, or -1 when no thread could be made. */
int chttpd_watch_start(chttpd_server *server);
void chttpd_watch_stop(chttpd_server *server);

/* MHD's connection notification: registers a new connection with its header deadline, forgets a closed one. */
void chttpd_watch_connection(void *cls, struct MHD_Connection *connection, void **socket_context, enum MHD_ConnectionNotificationCode code);

/* A connection waits for its client (`waiting` 1: the deadline starts again) or the handler has its request (0). */
void chttpd_watch_request(chttpd_server *server, struct MHD_Connection *connection, int waiting);
#endif
