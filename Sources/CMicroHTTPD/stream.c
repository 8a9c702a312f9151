#include "internal.h"
#include <stdlib.h>
#include <string.h>

/* A stream's buffer may hold this much unsent data (past what the socket holds); a client that reads slower is
   dropped: its buffer is freed at once and its connection closed with an error the next time MHD asks for data
   (or by MHD's idle timeout, when the socket never drains), so that slow readers cost a bounded amount of memory
   and no time of anyone else's. The client reconnects and gets `ready` again. */
#define STREAM_BUFFER_LIMIT (256 * 1024)

static void unlink_stream(chttpd_stream *stream) {
    chttpd_server *server = stream->server;
    pthread_mutex_lock(&server->streams_lock);
    if (stream->previous) stream->previous->next = stream->next; else if (server->streams == stream) server->streams = stream->next;
    if (stream->next) stream->next->previous = stream->previous;
    stream->next = stream->previous = NULL;
    pthread_mutex_unlock(&server->streams_lock);
}

void chttpd_stream_release(chttpd_stream *stream) {
    if (!stream) return;
    pthread_mutex_lock(&stream->lock);
    int remaining = --stream->references;
    pthread_mutex_unlock(&stream->lock);
    if (remaining > 0) return;
    pthread_mutex_destroy(&stream->lock);
    free(stream->buffer);
    free(stream);
}

/* Must hold stream->lock. Wakes the connection so MHD calls the reader again. */
static void wake(chttpd_stream *stream) {
    if (stream->suspended) {
        stream->suspended = 0;
        MHD_resume_connection(stream->connection);
    }
}

static ssize_t read_stream(void *cls, uint64_t position, char *out, size_t max) {
    (void)position;
    chttpd_stream *stream = (chttpd_stream *)cls;
    pthread_mutex_lock(&stream->lock);
    if (stream->overflowed) {
        pthread_mutex_unlock(&stream->lock);
        return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    if (stream->length > 0) {
        size_t count = stream->length < max ? stream->length : max;
        memcpy(out, stream->buffer, count);
        memmove(stream->buffer, stream->buffer + count, stream->length - count);
        stream->length -= count;
        pthread_mutex_unlock(&stream->lock);
        return (ssize_t)count;
    }
    if (stream->ended) {
        pthread_mutex_unlock(&stream->lock);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    /* Nothing to send: leave MHD's event loop until chttpd_stream_send or chttpd_stream_end wakes us. */
    stream->suspended = 1;
    MHD_suspend_connection(stream->connection);
    pthread_mutex_unlock(&stream->lock);
    return 0;
}

static void free_stream(void *cls) {
    chttpd_stream *stream = (chttpd_stream *)cls;
    pthread_mutex_lock(&stream->lock);
    stream->ended = 1;
    pthread_mutex_unlock(&stream->lock);
    unlink_stream(stream);
    chttpd_stream_release(stream);
}

struct MHD_Response *chttpd_stream_response(chttpd_server *server, struct MHD_Connection *connection, chttpd_stream **created) {
    chttpd_stream *stream = (chttpd_stream *)calloc(1, sizeof(chttpd_stream));
    if (!stream) return NULL;
    pthread_mutex_init(&stream->lock, NULL);
    stream->server = server;
    stream->connection = connection;
    stream->references = 2;
    struct MHD_Response *response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read_stream, stream, free_stream);
    if (!response) {
        pthread_mutex_destroy(&stream->lock);
        free(stream);
        return NULL;
    }
    pthread_mutex_lock(&server->streams_lock);
    /* A stream opened while the server stops starts ended: its client gets an empty stream, and reconnects. */
    stream->ended = server->stopping;
    stream->next = server->streams;
    if (server->streams) server->streams->previous = stream;
    server->streams = stream;
    pthread_mutex_unlock(&server->streams_lock);
    *created = stream;
    return response;
}

int chttpd_stream_send(chttpd_stream *stream, const uint8_t *data, size_t length) {
    pthread_mutex_lock(&stream->lock);
    if (stream->ended || stream->length + length > STREAM_BUFFER_LIMIT) {
        if (!stream->ended) {
            stream->overflowed = 1;
            free(stream->buffer);
            stream->buffer = NULL;
            stream->length = stream->capacity = 0;
        }
        stream->ended = 1;
        wake(stream);
        pthread_mutex_unlock(&stream->lock);
        return -1;
    }
    if (stream->length + length > stream->capacity) {
        size_t capacity = stream->capacity ? stream->capacity : 1024;
        while (capacity < stream->length + length) capacity *= 2;
        char *grown = (char *)realloc(stream->buffer, capacity);
        if (!grown) {
            pthread_mutex_unlock(&stream->lock);
            return -1;
        }
        stream->buffer = grown;
        stream->capacity = capacity;
    }
    memcpy(stream->buffer + stream->length, data, length);
    stream->length += length;
    wake(stream);
    pthread_mutex_unlock(&stream->lock);
    return 0;
}

void chttpd_stream_end(chttpd_stream *stream) {
    pthread_mutex_lock(&stream->lock);
    stream->ended = 1;
    wake(stream);
    pthread_mutex_unlock(&stream->lock);
}

void chttpd_end_streams(chttpd_server *server) {
    pthread_mutex_lock(&server->streams_lock);
    for (chttpd_stream *stream = server->streams; stream; stream = stream->next) chttpd_stream_end(stream);
    pthread_mutex_unlock(&server->streams_lock);
}
