#ifndef SNAPMAP_CHTTPD_INTERNAL_H
#define SNAPMAP_CHTTPD_INTERNAL_H
#include "chttpd.h"
#include <microhttpd.h>
#include <pthread.h>

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
    pthread_mutex_t streams_lock;
    chttpd_stream *streams;
    /* Deferred answers not yet sent (guarded by streams_lock). */
    int deferred;
    /* Request deadlines (deadline.c): the open connections, guarded by watch_lock, and their watchdog. */
    int64_t request_timeout_ms;
    pthread_mutex_t watch_lock;
    pthread_cond_t watch_wake;
    pthread_t watchdog;
    int watch_stopping;
    chttpd_watched *watched;
};

/* What a request carries between MHD's calls: its body so far, and its deferred answer once it has one. */
typedef struct {
    uint8_t *body;
    size_t length;
    int too_large;
    chttpd_pending *pending;
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

/* Starts and stops a server's watchdog; start returns 0, or -1 when no thread could be made. */
int chttpd_watch_start(chttpd_server *server);
void chttpd_watch_stop(chttpd_server *server);

/* MHD's connection notification: registers a new connection with its header deadline, forgets a closed one. */
void chttpd_watch_connection(void *cls, struct MHD_Connection *connection, void **socket_context, enum MHD_ConnectionNotificationCode code);

/* A connection waits for its client (`waiting` 1: the deadline starts again) or the handler has its request (0). */
void chttpd_watch_request(chttpd_server *server, struct MHD_Connection *connection, int waiting);
#endif
