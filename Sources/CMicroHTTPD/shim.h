#ifndef WEBTABLEVIEW_CMICROHTTPD_SHIM_H
#define WEBTABLEVIEW_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <stdarg.h>
#include <microhttpd.h>

/// `MHD_start_daemon` is variadic, which Swift cannot call: take the options
/// as an `MHD_OptionItem` array ended by `MHD_OPTION_END`.
static inline struct MHD_Daemon *
wtv_start_daemon(unsigned int flags, uint16_t port,
                 MHD_AcceptPolicyCallback accept_policy, void *accept_policy_cls,
                 MHD_AccessHandlerCallback handler, void *handler_cls,
                 const struct MHD_OptionItem *options)
{
  return MHD_start_daemon(flags, port, accept_policy, accept_policy_cls,
                          handler, handler_cls,
                          MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon's listen socket is bound to (the real one for port 0).
static inline uint16_t
wtv_daemon_port(struct MHD_Daemon *daemon)
{
  const union MHD_DaemonInfo *info =
    MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return (NULL == info) ? 0 : info->port;
}

/// The connection's socket, or -1 (`MHD_get_connection_info` is variadic).
static inline int
wtv_connection_socket(struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return (NULL == info) ? -1 : info->connect_fd;
}

/// What the connection's `MHD_OPTION_NOTIFY_CONNECTION` callback keeps for
/// it, or NULL (`MHD_get_connection_info` is variadic).
static inline void *
wtv_connection_context(struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return (NULL == info) ? NULL : info->socket_context;
}

/// Watches `socket` in the epoll set `epoll` for its peer's end, once,
/// with `key` in its event (`ClientWatch`; `struct epoll_event` is packed,
/// which Swift does not import). 0, or -1 and errno.
static inline int
wtv_watch_peer_end(int epoll, int socket, uint64_t key)
{
  struct epoll_event event = { .events = EPOLLRDHUP | EPOLLONESHOT, .data.u64 = key };
  return epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event);
}

/// Takes `socket` out of the epoll set `epoll`.
static inline int
wtv_unwatch(int epoll, int socket)
{
  return epoll_ctl(epoll, EPOLL_CTL_DEL, socket, NULL);
}

/// The keys of at most `capacity` ready sockets of `epoll`, without waiting:
/// how many, or -1 and errno.
static inline int
wtv_ready_keys(int epoll, uint64_t *keys, int capacity)
{
  struct epoll_event events[64];
  int count = epoll_wait(epoll, events, capacity < 64 ? capacity : 64, 0);
  for (int index = 0; index < count; index++) {
    keys[index] = events[index].data.u64;
  }
  return count;
}

/// Macros with casts do not import into Swift.
static const uint64_t WTV_SIZE_UNKNOWN = MHD_SIZE_UNKNOWN;
static const ssize_t WTV_READER_END_OF_STREAM = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t WTV_READER_END_WITH_ERROR = MHD_CONTENT_READER_END_WITH_ERROR;

#endif
