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
#include <sys/un.h>

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

int vh_socket_info(int fd, int *type, int *listening, int *family) {
    socklen_t length = sizeof(int);
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, type, &length) != 0) return -1;
    length = sizeof(int);
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, listening, &length) != 0) return -1;
    struct sockaddr_storage address;
    memset(&address, 0, sizeof(address));
    length = sizeof(address);
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -1;
    *family = address.ss_family;
    return 0;
}

int vh_set_nonblocking_cloexec(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) return -1;
    int descriptor_flags = fcntl(fd, F_GETFD);
    if (descriptor_flags < 0 || fcntl(fd, F_SETFD, descriptor_flags | FD_CLOEXEC) != 0) return -1;
    return 0;
}

#define VH_MAX_PASSED_FDS 64

ssize_t vh_send_fds(int sock, const void *bytes, size_t count, const int *fds, int fd_count) {
    if (fd_count < 0 || fd_count > VH_MAX_PASSED_FDS) {
        errno = EINVAL;
        return -1;
    }
    union {
        char buffer[CMSG_SPACE(sizeof(int) * VH_MAX_PASSED_FDS)];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof(control));
    struct iovec part = {(void *)bytes, count};
    struct msghdr message;
    memset(&message, 0, sizeof(message));
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    if (fd_count > 0) {
        message.msg_control = control.buffer;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * fd_count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * fd_count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * fd_count);
    }
    ssize_t sent;
    do {
        sent = sendmsg(sock, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t vh_recv_fds(int sock, void *bytes, size_t count, int *fds, int *fd_count) {
    int capacity = *fd_count;
    *fd_count = 0;
    if (capacity < 0 || capacity > VH_MAX_PASSED_FDS) {
        errno = EINVAL;
        return -1;
    }
    union {
        char buffer[CMSG_SPACE(sizeof(int) * VH_MAX_PASSED_FDS)];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof(control));
    struct iovec part = {bytes, count};
    struct msghdr message;
    memset(&message, 0, sizeof(message));
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control.buffer;
    message.msg_controllen = CMSG_SPACE(sizeof(int) * (capacity > 0 ? capacity : 1));
    ssize_t received;
    do {
        received = recvmsg(sock, &message, MSG_CMSG_CLOEXEC);
    } while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    int got = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t payload = header->cmsg_len - CMSG_LEN(0);
        int n = (int)(payload / sizeof(int));
        int *passed = (int *)CMSG_DATA(header);
        for (int i = 0; i < n; i++) {
            int fd;
            memcpy(&fd, passed + i, sizeof(int));
            if (got < capacity) {
                fds[got++] = fd;
            } else {
                close(fd);
            }
        }
    }
    if (message.msg_flags & MSG_CTRUNC) {
        for (int i = 0; i < got; i++) close(fds[i]);
        errno = EMSGSIZE;
        return -1;
    }
    *fd_count = got;
    return received;
}

int vh_peer_uid(int sock, uid_t *uid) {
    struct ucred credentials;
    socklen_t length = sizeof(credentials);
    if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

static int vh_unix_address(const char *path, struct sockaddr_un *address) {
    memset(address, 0, sizeof(*address));
    address->sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof(address->sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address->sun_path, path, length);
    return 0;
}

int vh_unix_listen(const char *path, int backlog) {
    struct sockaddr_un address;
    if (vh_unix_address(path, &address) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(fd, backlog) != 0) {
        int code = errno;
        close(fd);
        errno = code;
        return -1;
    }
    return fd;
}

int vh_unix_connect(const char *path) {
    struct sockaddr_un address;
    if (vh_unix_address(path, &address) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
        int code = errno;
        close(fd);
        errno = code;
        return -1;
    }
    return fd;
}

int vh_set_io_timeout(int fd, int milliseconds) {
    struct timeval value = {milliseconds / 1000, (milliseconds % 1000) * 1000};
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, sizeof(value)) != 0) return -1;
    return setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, sizeof(value));
}
