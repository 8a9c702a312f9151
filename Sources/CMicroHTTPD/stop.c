#include "internal.h"
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

void chttpd_free_server(chttpd_server *server) {
    for (unsigned i = 0; i < server->daemon_count; i++) MHD_stop_daemon(server->daemons[i]);
    server->daemon_count = 0;
    chttpd_watch_stop(server);
    pthread_mutex_destroy(&server->streams_lock);
    free(server);
}

/* Stopping. The rule: MHD_stop_daemon aborts the process when a connection is suspended, and a connection is
   suspended only while its request is in flight (a deferred answer not yet sent, or a stream waiting for
   data). So the requests in flight are let finish first: streams are ended (and new ones start ended), kept-alive
   connections close after their answer, and nothing new is accepted. Then, under streams_lock, the server is
   marked closed: no request starts and no answer is deferred after that, so when no deferred answer is left at
   that moment, none can appear, and the daemons stop safely. */
int chttpd_stop(chttpd_server *server, unsigned grace_ms) {
    if (!server) return 0;
    chttpd_stop_listening(server);
    pthread_mutex_lock(&server->streams_lock);
    server->stopping = 1;
    pthread_mutex_unlock(&server->streams_lock);
    chttpd_end_streams(server);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        pthread_mutex_lock(&server->streams_lock);
        int open = server->in_flight;
        pthread_mutex_unlock(&server->streams_lock);
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t waited_ms = (int64_t)(now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (open == 0 || waited_ms >= (int64_t)grace_ms) break;
        usleep(5000);
    }
    pthread_mutex_lock(&server->streams_lock);
    server->closed = 1;
    int unfinished = server->in_flight;
    int deferred = server->deferred;
    pthread_mutex_unlock(&server->streams_lock);
    if (deferred == 0) chttpd_free_server(server);
    return unfinished;
}

void chttpd_close_when_stopping(chttpd_server *server, struct MHD_Response *response) {
    pthread_mutex_lock(&server->streams_lock);
    int stopping = server->stopping;
    pthread_mutex_unlock(&server->streams_lock);
    if (stopping) MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
}
