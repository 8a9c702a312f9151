#include "internal.h"
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>

/* Request deadlines. MHD's timeout counts idle time only, so a client that trickles a byte every few seconds
   could hold a connection for ever. Here a connection must bring its request line and headers within the
   request timeout of opening (or of its previous answer), and its body within as long again; a watchdog thread
   shuts down the sockets of those that do not, and MHD then closes them as it closes any that hang up. A
   socket is shut down only under the lock that MHD's close notification takes, so its descriptor is still ours.
   A socket holding bytes MHD has not read yet is not the client's slowness but the server's (its polling thread
   busy with another request's handler): it is left until MHD reads them, and its request is answered. */

struct chttpd_watched {
    int fd;
    int64_t deadline_ms; /* 0 while the handler has the request (rendering or an open stream is not slowness) */
    chttpd_watched *next, *previous;
};

static const long watchdog_period_ms = 100;

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void *watch(void *argument) {
    chttpd_server *server = (chttpd_server *)argument;
    pthread_mutex_lock(&server->watch_lock);
    while (!server->watch_stopping) {
        int64_t now = now_ms();
        for (chttpd_watched *entry = server->watched; entry; entry = entry->next) {
            int64_t deadline = __atomic_load_n(&entry->deadline_ms, __ATOMIC_RELAXED);
            int unread = 0;
            if (deadline != 0 && now > deadline && !(ioctl(entry->fd, FIONREAD, &unread) == 0 && unread > 0)) {
                shutdown(entry->fd, SHUT_RDWR);
                __atomic_store_n(&entry->deadline_ms, 0, __ATOMIC_RELAXED);
            }
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += watchdog_period_ms * 1000000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&server->watch_wake, &server->watch_lock, &until);
    }
    pthread_mutex_unlock(&server->watch_lock);
    return NULL;
}

int chttpd_watch_start(chttpd_server *server) {
    pthread_mutex_init(&server->watch_lock, NULL);
    pthread_cond_init(&server->watch_wake, NULL);
    server->watch_stopping = 0;
    if (pthread_create(&server->watchdog, NULL, watch, server) != 0) {
        pthread_cond_destroy(&server->watch_wake);
        pthread_mutex_destroy(&server->watch_lock);
        return -1;
    }
    return 0;
}

void chttpd_watch_stop(chttpd_server *server) {
    pthread_mutex_lock(&server->watch_lock);
    server->watch_stopping = 1;
    pthread_cond_signal(&server->watch_wake);
    pthread_mutex_unlock(&server->watch_lock);
    pthread_join(server->watchdog, NULL);
    pthread_cond_destroy(&server->watch_wake);
    pthread_mutex_destroy(&server->watch_lock);
}

void chttpd_watch_connection(void *cls, struct MHD_Connection *connection, void **socket_context, enum MHD_ConnectionNotificationCode code) {
    chttpd_server *server = (chttpd_server *)cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        chttpd_watched *entry = (chttpd_watched *)calloc(1, sizeof(chttpd_watched));
        *socket_context = entry;
        if (!entry || !info) return;
        entry->fd = info->connect_fd;
        entry->deadline_ms = now_ms() + server->request_timeout_ms;
        pthread_mutex_lock(&server->watch_lock);
        entry->next = server->watched;
        if (server->watched) server->watched->previous = entry;
        server->watched = entry;
        pthread_mutex_unlock(&server->watch_lock);
        return;
    }
    chttpd_watched *entry = (chttpd_watched *)*socket_context;
    if (!entry) return;
    pthread_mutex_lock(&server->watch_lock);
    if (entry->previous) entry->previous->next = entry->next;
    else if (server->watched == entry) server->watched = entry->next;
    if (entry->next) entry->next->previous = entry->previous;
    pthread_mutex_unlock(&server->watch_lock);
    free(entry);
    *socket_context = NULL;
}

void chttpd_watch_request(chttpd_server *server, struct MHD_Connection *connection, int waiting) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    chttpd_watched *entry = info ? (chttpd_watched *)info->socket_context : NULL;
    if (!entry) return;
    __atomic_store_n(&entry->deadline_ms, waiting ? now_ms() + server->request_timeout_ms : 0, __ATOMIC_RELAXED);
}
