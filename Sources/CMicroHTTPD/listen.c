#define _GNU_SOURCE
#include "internal.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The listening socket. A server owns its port: the socket is bound without SO_REUSEPORT (unless the caller
   asks for it), so a second server on the same port fails to start instead of quietly taking a share of the
   connections. One socket cannot be spread over the daemons by the kernel, so one thread accepts and hands
   the connections to the daemons in turn (MHD_add_connection: each daemon takes them on its own thread and
   keeps its per-client and connection limits). Stopping shuts the socket down: the kernel refuses later
   connections at once, and the thread sees the flag within one poll period. */

static const int accept_poll_ms = 100;

int chttpd_address(const char *host, uint16_t port, struct sockaddr_storage *address, socklen_t *length) {
    memset(address, 0, sizeof *address);
    struct sockaddr_in *v4 = (struct sockaddr_in *)address;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)address;
    if (host && inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        *length = sizeof *v4;
        return 0;
    }
    if (host && inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        *length = sizeof *v6;
        return 0;
    }
    return -1;
}

int chttpd_valid_host(const char *host) {
    struct sockaddr_storage address;
    socklen_t length;
    return chttpd_address(host, 0, &address, &length) == 0;
}

static void *accept_connections(void *argument) {
    chttpd_server *server = (chttpd_server *)argument;
    struct pollfd waiting = {.fd = server->listen_fd, .events = POLLIN};
    while (!__atomic_load_n(&server->accept_stopping, __ATOMIC_ACQUIRE)) {
        if (poll(&waiting, 1, accept_poll_ms) <= 0) continue;
        for (;;) {
            struct sockaddr_storage address;
            socklen_t length = sizeof address;
            int fd = accept4(server->listen_fd, (struct sockaddr *)&address, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                /* Out of descriptors (or memory): the connection waits in the backlog; do not spin on it. */
                if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) usleep(10000);
                break;
            }
            struct MHD_Daemon *daemon = server->daemons[server->next_daemon++ % server->daemon_count];
            /* MHD closes the socket itself when the daemon refuses it (over a limit). */
            MHD_add_connection(daemon, fd, (struct sockaddr *)&address, length);
        }
    }
    return NULL;
}

int chttpd_listen(chttpd_server *server, const struct sockaddr *address, socklen_t length, int reuse_port, char *error, size_t error_size) {
    int fd = socket(address->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(error, error_size, "cannot make a socket: %s", strerror(errno));
        return -1;
    }
    int on = 1;
    /* SO_REUSEADDR only lets a restarted server bind past its old connections in TIME_WAIT; two listening
       sockets still cannot share the port. */
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (reuse_port) setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
    if (address->sa_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    if (bind(fd, address, length) != 0 || listen(fd, 1024) != 0) {
        int failure = errno;
        close(fd);
        if (failure == EADDRINUSE) snprintf(error, error_size, "the port is in use (another server listens on it)");
        else snprintf(error, error_size, "%s", strerror(failure));
        return -1;
    }
    server->listen_fd = fd;
    server->accept_stopping = 0;
    if (pthread_create(&server->acceptor, NULL, accept_connections, server) != 0) {
        close(fd);
        snprintf(error, error_size, "cannot start the accepting thread");
        return -1;
    }
    server->accepting = 1;
    return 0;
}

void chttpd_stop_listening(chttpd_server *server) {
    if (!server->accepting) return;
    __atomic_store_n(&server->accept_stopping, 1, __ATOMIC_RELEASE);
    shutdown(server->listen_fd, SHUT_RDWR);
    pthread_join(server->acceptor, NULL);
    close(server->listen_fd);
    server->accepting = 0;
}

uint16_t chttpd_port(chttpd_server *server) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(server->listen_fd, (struct sockaddr *)&address, &length) != 0) return 0;
    if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    return ntohs(((struct sockaddr_in *)&address)->sin_port);
}
