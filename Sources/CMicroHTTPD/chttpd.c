#include "chttpd.h"
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define MAX_HEADERS 16

struct chttpd_server {
    struct MHD_Daemon *daemon;
    chttpd_handler handler;
    void *context;
};

struct chttpd_exchange {
    struct MHD_Connection *connection;
    int header_count;
    char *names[MAX_HEADERS];
    char *values[MAX_HEADERS];
    int responded;
};

typedef struct {
    char *data;
    size_t length;
    size_t capacity;
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
    append(buffer, key, strlen(key));
    append(buffer, "\x1F", 1);
    if (value) append(buffer, value, strlen(value));
    append(buffer, "\x1E", 1);
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **request_state) {
    (void)version;
    (void)upload_data;
    static int seen;
    chttpd_server *server = (chttpd_server *)cls;
    if (*request_state == NULL) {
        /* First call: only the headers are in. Answering now would make MHD close the connection, so wait for
           the call that follows the (empty or discarded) body, and keep the connection alive. */
        *request_state = &seen;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0; /* request bodies are not read: the handler answers 405 or 400 */
        return MHD_YES;
    }
    text_buffer query = {NULL, 0, 0};
    append(&query, "", 0);
    MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect_argument, &query);
    const char *if_none_match = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    chttpd_exchange exchange;
    memset(&exchange, 0, sizeof exchange);
    exchange.connection = connection;
    const char *host = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    server->handler(server->context, &exchange, method, url, query.data ? query.data : "", if_none_match, host);
    free(query.data);
    for (int i = 0; i < exchange.header_count; i++) {
        free(exchange.names[i]);
        free(exchange.values[i]);
    }
    return exchange.responded ? MHD_YES : MHD_NO;
}

chttpd_server *chttpd_start(const char *host, uint16_t port, unsigned threads, unsigned timeout_seconds,
                            size_t connection_memory, unsigned connection_limit, chttpd_handler handler, void *context,
                            char *error, size_t error_size) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
        snprintf(error, error_size, "host must be an IPv4 address such as 127.0.0.1, got \"%s\"", host);
        return NULL;
    }
    chttpd_server *server = (chttpd_server *)calloc(1, sizeof(chttpd_server));
    if (!server) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO | MHD_USE_ERROR_LOG;
    server->daemon = MHD_start_daemon(flags, port, NULL, NULL, on_request, server,
                                      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                      MHD_OPTION_THREAD_POOL_SIZE, threads,
                                      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                                      MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory,
                                      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                                      MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024,
                                      MHD_OPTION_END);
    if (!server->daemon) {
        snprintf(error, error_size, "cannot listen on %s:%u (in use, or not allowed)", host, (unsigned)port);
        free(server);
        return NULL;
    }
    return server;
}

uint16_t chttpd_port(chttpd_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

void chttpd_stop(chttpd_server *server) {
    if (!server) return;
    MHD_stop_daemon(server->daemon);
    free(server);
}

int chttpd_add_header(chttpd_exchange *exchange, const char *name, const char *value) {
    if (exchange->header_count >= MAX_HEADERS || !name || !value) return -1;
    exchange->names[exchange->header_count] = strdup(name);
    exchange->values[exchange->header_count] = strdup(value);
    exchange->header_count++;
    return 0;
}

int chttpd_respond(chttpd_exchange *exchange, unsigned status, const uint8_t *body, size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!response) return -1;
    for (int i = 0; i < exchange->header_count; i++) {
        MHD_add_response_header(response, exchange->names[i], exchange->values[i]);
    }
    enum MHD_Result queued = MHD_queue_response(exchange->connection, status, response);
    MHD_destroy_response(response);
    exchange->responded = queued == MHD_YES;
    return queued == MHD_YES ? 0 : -1;
}
