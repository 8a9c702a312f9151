#include <errno.h>
#include <hiredis/hiredis.h>
#include <poll.h>

/* Waiting on a subscribed connection without breaking it. hiredis's socket timeout marks the context broken
   when it expires, so a listener that wants to wake up every second (to ping, or to notice that its slot
   moved) asks first whether a whole reply is already buffered, then polls the socket for at most `ms`.
   Returns 1 with `*reply` set (free it with freeReplyObject), 0 when nothing came in time (the context is
   untouched), -1 when the connection failed (the context's err says why). */
static inline int chiredis_reply_within(redisContext *context, int ms, void **reply) {
    *reply = NULL;
    if (redisGetReplyFromReader(context, reply) != REDIS_OK) return -1;
    if (*reply) return 1;
    struct pollfd watched = { .fd = context->fd, .events = POLLIN };
    int ready = poll(&watched, 1, ms);
    if (ready == 0) return 0;
    if (ready < 0) return errno == EINTR ? 0 : -1;
    if (redisGetReply(context, reply) != REDIS_OK || !*reply) return -1;
    return 1;
}

/* Sends a command without reading its reply (a PING on a subscribed connection, answered among its
   messages). 0 when written, -1 when the connection failed. */
static inline int chiredis_send(redisContext *context, int argc, const char **argv, const size_t *lengths) {
    if (redisAppendCommandArgv(context, argc, argv, lengths) != REDIS_OK) return -1;
    int done = 0;
    while (!done) {
        if (redisBufferWrite(context, &done) != REDIS_OK) return -1;
    }
    return 0;
}
