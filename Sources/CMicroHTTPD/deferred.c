#include "internal.h"
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

struct chttpd_pending {
    chttpd_server *server;
    struct MHD_Connection *connection;
    chttpd_headers headers;
    unsigned status;
    uint8_t *body;
    size_t length;
    int ready;
    int fd; /* the connection's socket, -1 when MHD does not say */
    request_state *state;
};

chttpd_pending *chttpd_defer(chttpd_exchange *exchange) {
    request_state *state = chttpd_exchange_state(exchange);
    chttpd_server *server = chttpd_exchange_server(exchange);
    if (!state || state->pending) return NULL;
    chttpd_pending *pending = (chttpd_pending *)calloc(1, sizeof(chttpd_pending));
    if (!pending) return NULL;
    /* A closed server defers nothing more (its daemons may be stopping: see chttpd_stop). */
    pthread_mutex_lock(&server->streams_lock);
    int closed = server->closed;
    if (!closed) server->deferred++;
    pthread_mutex_unlock(&server->streams_lock);
    if (closed) {
        free(pending);
        return NULL;
    }
    pending->server = server;
    pending->connection = chttpd_exchange_connection(exchange);
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(pending->connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    pending->fd = info ? info->connect_fd : -1;
    pending->state = state;
    state->pending = pending;
    MHD_suspend_connection(pending->connection);
    chttpd_exchange_mark_answered(exchange);
    return pending;
}

int chttpd_pending_header(chttpd_pending *pending, const char *name, const char *value) {
    return chttpd_headers_add(&pending->headers, name, value);
}

int chttpd_pending_client_left(chttpd_pending *pending) {
    if (pending->fd < 0) return 0;
    char byte;
    ssize_t got = recv(pending->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (got == 0) return 1;
    return got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

void chttpd_pending_on_end(chttpd_pending *pending, void (*ended)(void *context), void *context) {
    pending->state->ended = ended;
    pending->state->ended_context = context;
}

void chttpd_complete(chttpd_pending *pending, unsigned status, const uint8_t *body, size_t length) {
    pending->status = status;
    pending->body = (uint8_t *)malloc(length ? length : 1);
    if (pending->body && length) memcpy(pending->body, body, length);
    pending->length = pending->body ? length : 0;
    pending->ready = 1;
    MHD_resume_connection(pending->connection);
}

enum MHD_Result chttpd_finish_deferred(struct MHD_Connection *connection, request_state *state) {
    chttpd_pending *pending = state->pending;
    if (!pending->ready) return MHD_YES;
    /* The body passes to MHD, which frees it: an answer is held once while a slow client reads it. */
    struct MHD_Response *response = MHD_create_response_from_buffer(pending->length, pending->body, MHD_RESPMEM_MUST_FREE);
    if (!response) return MHD_NO;
    pending->body = NULL;
    chttpd_headers_apply(&pending->headers, pending->server, response);
    enum MHD_Result queued = MHD_queue_response(connection, pending->status, response);
    MHD_destroy_response(response);
    chttpd_free_pending(state);
    return queued;
}

void chttpd_free_pending(request_state *state) {
    chttpd_pending *pending = state->pending;
    if (!pending) return;
    state->pending = NULL;
    pthread_mutex_lock(&pending->server->streams_lock);
    pending->server->deferred--;
    pthread_mutex_unlock(&pending->server->streams_lock);
    chttpd_headers_free(&pending->headers);
    free(pending->body);
    free(pending);
}
