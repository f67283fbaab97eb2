#define _GNU_SOURCE
#include "CSystemShim.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/uio.h>

const uint32_t VH_EPOLLIN = EPOLLIN;
const uint32_t VH_EPOLLOUT = EPOLLOUT;
const uint32_t VH_EPOLLERR = EPOLLERR;
const uint32_t VH_EPOLLHUP = EPOLLHUP;
const uint32_t VH_EPOLLRDHUP = EPOLLRDHUP;
const uint32_t VH_EPOLLET = EPOLLET;
const uint32_t VH_EPOLLEXCLUSIVE = EPOLLEXCLUSIVE;

int vh_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int vh_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    event.events = events;
    event.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &event);
}

int vh_epoll_add(int epfd, int fd, uint32_t events, uint64_t data) {
    return vh_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, events, data);
}

int vh_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data) {
    return vh_epoll_ctl(epfd, EPOLL_CTL_MOD, fd, events, data);
}

int vh_epoll_remove(int epfd, int fd) {
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event);
}

int vh_epoll_wait(int epfd, vh_epoll_event *events, int max_events, int timeout_ms) {
    struct epoll_event raw[256];
    if (max_events > 256) max_events = 256;
    int count = epoll_wait(epfd, raw, max_events, timeout_ms);
    if (count < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < count; i++) {
        events[i].events = raw[i].events;
        events[i].data = raw[i].data.u64;
    }
    return count;
}

int vh_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int vh_eventfd_signal(int fd) {
    uint64_t one = 1;
    return write(fd, &one, sizeof(one)) == sizeof(one) ? 0 : -1;
}

int vh_eventfd_drain(int fd) {
    uint64_t value;
    return read(fd, &value, sizeof(value)) == sizeof(value) ? 0 : -1;
}

int vh_accept(int fd, struct sockaddr *address, socklen_t *length) {
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int vh_stream_socket(int family) {
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

int vh_set_int_option(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof(value));
}

int vh_set_nodelay(int fd) { return vh_set_int_option(fd, IPPROTO_TCP, TCP_NODELAY, 1); }

int vh_set_reuse(int fd, int reuse_port) {
    if (vh_set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1) != 0) return -1;
    if (reuse_port && vh_set_int_option(fd, SOL_SOCKET, SO_REUSEPORT, 1) != 0) return -1;
    return 0;
}

int vh_set_linger_zero(int fd) {
    struct linger value = {1, 0};
    return setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, sizeof(value));
}

ssize_t vh_send(int fd, const void *bytes, size_t count) {
    return send(fd, bytes, count, MSG_NOSIGNAL);
}

ssize_t vh_send2(int fd, const void *first, size_t first_count, const void *second, size_t second_count) {
    struct iovec parts[2] = {{(void *)first, first_count}, {(void *)second, second_count}};
    struct msghdr message;
    memset(&message, 0, sizeof(message));
    message.msg_iov = parts;
    message.msg_iovlen = 2;
    return sendmsg(fd, &message, MSG_NOSIGNAL);
}

ssize_t vh_recv(int fd, void *bytes, size_t count) { return recv(fd, bytes, count, 0); }

long vh_raise_fd_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    }
    return (long)limit.rlim_cur;
}

void vh_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

uint64_t vh_monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

int vh_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
