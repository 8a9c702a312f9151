#include "internal.h"
#include <unistd.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct chttpd_exchange {
    chttpd_server *server;
    request_state *state;
    struct MHD_Connection *connection;
    chttpd_headers headers;
    int responded;
};


typedef struct {
    char *data;
    size_t length;
    size_t capacity;
    int arguments;
    int unsafe; /* an argument held a record separator, or there were too many */
} text_buffer;

static void append(text_buffer *buffer, const char *text, size_t length) {
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 256;
        while (capacity < buffer->length + length + 1) capacity *= 2;
        char *grown = (char *)realloc(buffer->data, capacity);
        if (!grown) return;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, text, length);
    buffer->length += length;
    buffer->data[buffer->length] = 0;
}

static enum MHD_Result collect_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    text_buffer *buffer = (text_buffer *)cls;
    /* The separators are ours: a decoded argument that holds one (%1E, %1F) could forge another argument. */
    if (strpbrk(key, "\x1E\x1F") || (value && strpbrk(value, "\x1E\x1F")) || ++buffer->arguments > CHTTPD_MAX_ARGUMENTS) {
        buffer->unsafe = 1;
        return MHD_NO;
    }
    append(buffer, key, strlen(key));
    append(buffer, "\x1F", 1);
    if (value) append(buffer, value, strlen(value));
    append(buffer, "\x1E", 1);
    return MHD_YES;
}

static void add_body(request_state *state, size_t limit, const char *data, size_t size) {
    if (state->too_large || state->length + size > limit) {
        state->too_large = 1;
        return;
    }
    if (!state->body) state->body = (uint8_t *)malloc(limit ? limit : 1);
    if (!state->body) {
        state->too_large = 1;
        return;
    }
    memcpy(state->body + state->length, data, size);
    state->length += size;
}

static const char *header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **request_state_pointer) {
    (void)version;
    chttpd_server *server = (chttpd_server *)cls;
    request_state *state = (request_state *)*request_state_pointer;
    if (state && state->pending) return chttpd_finish_deferred(connection, state);
    if (state == NULL) {
        state = (request_state *)calloc(1, sizeof(request_state));
        if (!state) return MHD_NO;
        *request_state_pointer = state;
    }
    if (!state->started) {
        /* First call: only the headers are in. Answering now would make MHD close the connection, so wait for
           the calls that bring the body and the final one after it. Once the server has closed, no request
           starts: its connection is closed unanswered. */
        pthread_mutex_lock(&server->streams_lock);
        int closed = server->closed;
        if (!closed) server->in_flight++;
        pthread_mutex_unlock(&server->streams_lock);
        if (closed) return MHD_NO;
        state->started = 1;
        chttpd_watch_request(server, connection, 1);
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        add_body(state, server->body_limit, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    chttpd_watch_request(server, connection, 0);
    text_buffer query = {NULL, 0, 0, 0, 0};
    append(&query, "", 0);
    MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect_argument, &query);
    chttpd_exchange exchange;
    memset(&exchange, 0, sizeof exchange);
    exchange.connection = connection;
    exchange.server = server;
    exchange.state = state;
    chttpd_request request = {
        .method = method, .path = url, .query = query.data ? query.data : "",
        .if_none_match = header(connection, MHD_HTTP_HEADER_IF_NONE_MATCH), .host = header(connection, MHD_HTTP_HEADER_HOST),
        .authorization = header(connection, MHD_HTTP_HEADER_AUTHORIZATION), .content_type = header(connection, MHD_HTTP_HEADER_CONTENT_TYPE),
        .accept_encoding = header(connection, MHD_HTTP_HEADER_ACCEPT_ENCODING),
        .body = state->body, .body_length = state->length, .body_too_large = state->too_large,
        .query_refused = query.unsafe || state->query_refused,
    };
    server->handler(server->context, &exchange, &request);
    free(query.data);
    chttpd_headers_free(&exchange.headers);
    return exchange.responded ? MHD_YES : MHD_NO;
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **request_state_pointer, enum MHD_RequestTerminationCode code) {
    (void)code;
    chttpd_server *server = (chttpd_server *)cls;
    /* The next request on a kept-alive connection has the same time to arrive. */
    chttpd_watch_request(server, connection, 1);
    request_state *state = (request_state *)*request_state_pointer;
    if (!state) return;
    if (state->ended) state->ended(state->ended_context);
    if (state->started) {
        pthread_mutex_lock(&server->streams_lock);
        server->in_flight--;
        pthread_mutex_unlock(&server->streams_lock);
    }
    chttpd_free_pending(state);
    free(state->body);
    free(state);
    *request_state_pointer = NULL;
}

/* One daemon with its own polling thread, without a socket of its own: the listening thread (listen.c) hands
   it its share of the connections. */
static struct MHD_Daemon *start_daemon(chttpd_server *server, const chttpd_limits *limits) {
    unsigned threads = limits->threads;
    unsigned per_client = limits->per_client_limit / threads > 0 ? limits->per_client_limit / threads : 1;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME
        | MHD_USE_NO_LISTEN_SOCKET;
    return MHD_start_daemon(flags, 0, NULL, NULL, on_request, server,
                            MHD_OPTION_CONNECTION_TIMEOUT, limits->idle_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits->connection_memory,
                            MHD_OPTION_CONNECTION_LIMIT, limits->connection_limit / threads,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_client,
                            MHD_OPTION_URI_LOG_CALLBACK, chttpd_check_query, server,
                            MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
                            MHD_OPTION_NOTIFY_CONNECTION, chttpd_watch_connection, server,
                            MHD_OPTION_END);
}

chttpd_server *chttpd_start(const char *host, uint16_t port, const chttpd_limits *requested, chttpd_handler handler, void *context,
                            char *error, size_t error_size) {
    chttpd_limits limits = *requested;
    struct sockaddr_storage address;
    socklen_t address_length;
    if (chttpd_address(host, port, &address, &address_length) != 0) {
        snprintf(error, error_size, "host must be an IPv4 or IPv6 address such as 127.0.0.1 or ::1, got \"%s\"", host);
        return NULL;
    }
    if (limits.threads < 1) limits.threads = 1;
    if (limits.threads > CHTTPD_MAX_THREADS) limits.threads = CHTTPD_MAX_THREADS;
    chttpd_server *server = (chttpd_server *)calloc(1, sizeof(chttpd_server));
    if (!server) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    server->body_limit = limits.body_limit;
    server->request_timeout_ms = (int64_t)limits.request_timeout_seconds * 1000;
    if (chttpd_watch_start(server) != 0) {
        snprintf(error, error_size, "cannot start the request watchdog thread");
        free(server);
        return NULL;
    }
    pthread_mutex_init(&server->streams_lock, NULL);
    for (unsigned i = 0; i < limits.threads; i++) {
        struct MHD_Daemon *daemon = start_daemon(server, &limits);
        if (!daemon) {
            snprintf(error, error_size, "cannot start the server's threads");
            chttpd_free_server(server);
            return NULL;
        }
        server->daemons[server->daemon_count++] = daemon;
    }
    char reason[160];
    if (chttpd_listen(server, (struct sockaddr *)&address, address_length, limits.reuse_port, reason, sizeof reason) != 0) {
        snprintf(error, error_size, "cannot listen on %s port %u: %s", host, (unsigned)port, reason);
        chttpd_free_server(server);
        return NULL;
    }
    return server;
}

int chttpd_add_header(chttpd_exchange *exchange, const char *name, const char *value) {
    return chttpd_headers_add(&exchange->headers, name, value);
}

chttpd_stream *chttpd_respond_stream(chttpd_exchange *exchange, unsigned status) {
    chttpd_stream *stream = NULL;
    struct MHD_Response *response = chttpd_stream_response(exchange->server, exchange->connection, &stream);
    if (!response) return NULL;
    chttpd_headers_apply(&exchange->headers, exchange->server, response);
    enum MHD_Result queued = MHD_queue_response(exchange->connection, status, response);
    MHD_destroy_response(response);
    exchange->responded = queued == MHD_YES;
    if (queued != MHD_YES) {
        chttpd_stream_release(stream);
        return NULL;
    }
    return stream;
}

int chttpd_respond(chttpd_exchange *exchange, unsigned status, const uint8_t *body, size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!response) return -1;
    chttpd_headers_apply(&exchange->headers, exchange->server, response);
    enum MHD_Result queued = MHD_queue_response(exchange->connection, status, response);
    MHD_destroy_response(response);
    exchange->responded = queued == MHD_YES;
    return queued == MHD_YES ? 0 : -1;
}

chttpd_server *chttpd_exchange_server(chttpd_exchange *exchange) { return exchange->server; }
struct MHD_Connection *chttpd_exchange_connection(chttpd_exchange *exchange) { return exchange->connection; }
request_state *chttpd_exchange_state(chttpd_exchange *exchange) { return exchange->state; }
void chttpd_exchange_mark_answered(chttpd_exchange *exchange) { exchange->responded = 1; }
