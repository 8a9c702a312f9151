#ifndef SNAPMAP_CHTTPD_INTERNAL_H
#define SNAPMAP_CHTTPD_INTERNAL_H
#include "chttpd.h"
#include <microhttpd.h>
#include <pthread.h>

/* What the server and its streams share: the open streams, so that stopping can end them (MHD refuses to
   stop with suspended connections). */
struct chttpd_server {
    struct MHD_Daemon *daemon;
    chttpd_handler handler;
    void *context;
    size_t body_limit;
    pthread_mutex_t streams_lock;
    chttpd_stream *streams;
};

struct chttpd_stream {
    pthread_mutex_t lock;
    chttpd_server *server;
    struct MHD_Connection *connection;
    chttpd_stream *next, *previous;
    char *buffer;
    size_t length, capacity;
    int ended, suspended, references;
};

/* Creates the MHD response of a new stream (one reference for MHD, one for the caller). */
struct MHD_Response *chttpd_stream_response(chttpd_server *server, struct MHD_Connection *connection, chttpd_stream **created);

/* Ends every stream of a server (before MHD_stop_daemon). */
void chttpd_end_streams(chttpd_server *server);
#endif
