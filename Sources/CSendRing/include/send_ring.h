#ifndef WEBTABLEVIEW_CSENDRING_H
#define WEBTABLEVIEW_CSENDRING_H
#include <stddef.h>

/// One buffer sent to many sockets with one system call: an io_uring of
/// `IORING_OP_SEND` requests (docs/ARCHITECTURE.md, Concurrency: the direct
/// write). A ring belongs to one thread at a time.
typedef struct wtv_send_ring wtv_send_ring;

/// What the kernel offers a send ring, asked once at start-up.
typedef enum {
  /// Rings that take `IORING_OP_SEND` (Linux 5.6 and later).
  WTV_SEND_RING_SUPPORTED = 0,
  /// No ring at all: a kernel before 5.1, `kernel.io_uring_disabled`, a
  /// container's seccomp filter.
  WTV_SEND_RING_REFUSED = 1,
  /// Rings, but not the send operation (Linux 5.1 to 5.5, which has no
  /// `IORING_REGISTER_PROBE` either): every batch would fail.
  WTV_SEND_RING_NO_SEND = 2,
} wtv_send_ring_support;

/// Makes a ring of one entry and asks it (`IORING_REGISTER_PROBE`) whether
/// the kernel supports `IORING_OP_SEND`; the ring is closed again.
wtv_send_ring_support wtv_send_ring_probe(void);

/// A ring of `entries` sends (a power of two, at most 4,096), or NULL where
/// io_uring is not to be had (an old kernel, a container's seccomp filter,
/// `kernel.io_uring_disabled`): the caller then sends one socket at a time.
wtv_send_ring *wtv_send_ring_create(unsigned entries);

void wtv_send_ring_destroy(wtv_send_ring *ring);

/// How many sockets one call of `wtv_send_ring_send` takes at most.
unsigned wtv_send_ring_capacity(const wtv_send_ring *ring);

/// Sends `length` bytes at `bytes` to each of `count` sockets (at most the
/// capacity), as `send(socket, bytes, length, MSG_NOSIGNAL | MSG_DONTWAIT)`
/// would, one after the other, and waits until every send is done.
/// `results[i]` is what that `send` would return for `sockets[i]`: the bytes
/// the socket took, or minus the errno (-EAGAIN when it took nothing). A send
/// the kernel was never given reads -ECANCELED, having written nothing.
///
/// Returns 0; or -1 when the ring failed and is not to be used again, in
/// which case a send whose outcome never came back reads -EIO: it may have
/// written any part of the bytes. A failed ring sends nothing, and every
/// result reads -ECANCELED.
int wtv_send_ring_send(wtv_send_ring *ring, const int *sockets, unsigned count,
                        const void *bytes, size_t length, long *results);

#endif
