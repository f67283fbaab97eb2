#ifndef C_SYSTEM_SHIM_H
#define C_SYSTEM_SHIM_H

// What Swift's Glibc module does not expose: epoll, eventfd, accept4 flags and a few socket options.
// Only thin wrappers live here; all logic stays in Swift.

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

/// One readiness event, unpacked. The kernel's `struct epoll_event` is packed on x86_64, which Swift
/// cannot lay out reliably, so `vh_epoll_wait` copies each event into this plain struct.
typedef struct {
    uint32_t events;
    uint64_t data;
} vh_epoll_event;

extern const uint32_t VH_EPOLLIN;
extern const uint32_t VH_EPOLLOUT;
extern const uint32_t VH_EPOLLERR;
extern const uint32_t VH_EPOLLHUP;
extern const uint32_t VH_EPOLLRDHUP;
extern const uint32_t VH_EPOLLET;
extern const uint32_t VH_EPOLLEXCLUSIVE;

int vh_epoll_create(void);
int vh_epoll_add(int epfd, int fd, uint32_t events, uint64_t data);
int vh_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data);
int vh_epoll_remove(int epfd, int fd);
/// Waits for events; returns the count, 0 on timeout or EINTR, -1 on other errors.
int vh_epoll_wait(int epfd, vh_epoll_event *events, int max_events, int timeout_ms);

/// A non-blocking, close-on-exec eventfd.
int vh_eventfd(void);
int vh_eventfd_signal(int fd);
int vh_eventfd_drain(int fd);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC.
int vh_accept(int fd, struct sockaddr *address, socklen_t *length);
/// A non-blocking, close-on-exec stream socket of the given family.
int vh_stream_socket(int family);

int vh_set_int_option(int fd, int level, int name, int value);
int vh_set_nodelay(int fd);
int vh_set_reuse(int fd, int reuse_port);
int vh_set_linger_zero(int fd);

/// send with MSG_NOSIGNAL, so a peer that went away gives EPIPE instead of SIGPIPE.
ssize_t vh_send(int fd, const void *bytes, size_t count);
/// writev-like gather send with MSG_NOSIGNAL (sendmsg).
ssize_t vh_send2(int fd, const void *first, size_t first_count, const void *second, size_t second_count);
ssize_t vh_recv(int fd, void *bytes, size_t count);

/// Raises the soft RLIMIT_NOFILE to the hard limit; returns the new soft limit, or -1.
long vh_raise_fd_limit(void);
/// Ignores SIGPIPE process-wide (the OpenSSL write path cannot pass MSG_NOSIGNAL).
void vh_ignore_sigpipe(void);

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC).
uint64_t vh_monotonic_nanoseconds(void);

/// pipe2 with O_CLOEXEC (Glibc's Swift module does not declare pipe2).
int vh_pipe_cloexec(int fds[2]);

/// What a descriptor passed in from outside is: `*type` (SO_TYPE), `*listening` (SO_ACCEPTCONN) and `*family`
/// (getsockname). Returns 0, or -1 with errno (ENOTSOCK for a descriptor that is not a socket, EBADF for none).
int vh_socket_info(int fd, int *type, int *listening, int *family);
/// Sets O_NONBLOCK and FD_CLOEXEC on a descriptor; 0 or -1 with errno.
int vh_set_nonblocking_cloexec(int fd);

/// sendmsg with MSG_NOSIGNAL carrying `count` bytes and `fd_count` descriptors (SCM_RIGHTS, at most 64).
ssize_t vh_send_fds(int sock, const void *bytes, size_t count, const int *fds, int fd_count);
/// recvmsg with MSG_CMSG_CLOEXEC: up to `count` bytes into `bytes` and up to `*fd_count` descriptors into `fds`
/// (at most 64); `*fd_count` becomes how many came. Descriptors that did not fit (MSG_CTRUNC) are closed by the
/// kernel; then this closes those that came too and fails with EMSGSIZE. Returns the byte count, or -1.
ssize_t vh_recv_fds(int sock, void *bytes, size_t count, int *fds, int *fd_count);
/// The user id of a unix socket's peer (SO_PEERCRED); 0 or -1 with errno.
int vh_peer_uid(int sock, uid_t *uid);
/// A listening, close-on-exec unix stream socket at `path` (which must not exist); -1 with errno
/// (ENAMETOOLONG for a path that does not fit sun_path).
int vh_unix_listen(const char *path, int backlog);
/// A close-on-exec unix stream socket connected to `path`; -1 with errno.
int vh_unix_connect(const char *path);
/// Sets SO_RCVTIMEO and SO_SNDTIMEO, so a blocking call on the socket gives up (EAGAIN) after `milliseconds`.
int vh_set_io_timeout(int fd, int milliseconds);

#endif
