// io_uring without liburing: the three system calls and the two shared rings
// (io_uring(7); docs/ARCHITECTURE.md says why not liburing). Only what sending one buffer to many sockets needs: no
// polling thread, no registered files, every request completed before
// `wtv_send_ring_send` returns.
#include "send_ring.h"

#include <errno.h>
#include <linux/io_uring.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

struct wtv_send_ring {
  int fd;
  unsigned entries;
  /// Completions of an earlier call may still be on their way: never used again.
  int broken;
  _Atomic unsigned *sq_head, *sq_tail;
  unsigned sq_mask;
  unsigned *sq_array;
  struct io_uring_sqe *sqes;
  _Atomic unsigned *cq_head, *cq_tail;
  unsigned cq_mask;
  struct io_uring_cqe *cqes;
  void *sq_map, *cq_map;
  size_t sq_map_size, cq_map_size, sqes_size;
};

wtv_send_ring_support
wtv_send_ring_probe(void)
{
  struct io_uring_params params;
  memset(&params, 0, sizeof(params));
  int fd = (int) syscall(__NR_io_uring_setup, 1, &params);
  if (fd < 0)
    return WTV_SEND_RING_REFUSED;
  enum { operations = 256 };
  struct io_uring_probe *probe = calloc(1, sizeof(*probe) + operations * sizeof(struct io_uring_probe_op));
  wtv_send_ring_support support = WTV_SEND_RING_NO_SEND;
  if (probe != NULL && syscall(__NR_io_uring_register, fd, IORING_REGISTER_PROBE, probe, operations) == 0
      && probe->last_op >= IORING_OP_SEND && (probe->ops[IORING_OP_SEND].flags & IO_URING_OP_SUPPORTED) != 0)
    support = WTV_SEND_RING_SUPPORTED;
  free(probe);
  close(fd);
  return support;
}

wtv_send_ring *
wtv_send_ring_create(unsigned entries)
{
  if (entries == 0 || entries > 4096 || (entries & (entries - 1)) != 0)
    return NULL;
  struct io_uring_params params;
  memset(&params, 0, sizeof(params));
  int fd = (int) syscall(__NR_io_uring_setup, entries, &params);
  if (fd < 0)
    return NULL;
  wtv_send_ring *ring = calloc(1, sizeof(*ring));
  if (ring == NULL) {
    close(fd);
    return NULL;
  }
  ring->fd = fd;
  ring->entries = params.sq_entries;
  ring->sq_map_size = params.sq_off.array + params.sq_entries * sizeof(unsigned);
  ring->cq_map_size = params.cq_off.cqes + params.cq_entries * sizeof(struct io_uring_cqe);
  ring->sqes_size = params.sq_entries * sizeof(struct io_uring_sqe);
  ring->sq_map = mmap(NULL, ring->sq_map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
                      IORING_OFF_SQ_RING);
  ring->cq_map = mmap(NULL, ring->cq_map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
                      IORING_OFF_CQ_RING);
  ring->sqes = mmap(NULL, ring->sqes_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
  if (ring->sq_map == MAP_FAILED || ring->cq_map == MAP_FAILED || ring->sqes == MAP_FAILED
      || params.cq_entries < params.sq_entries) {
    wtv_send_ring_destroy(ring);
    return NULL;
  }
  char *sq = ring->sq_map, *cq = ring->cq_map;
  ring->sq_head = (_Atomic unsigned *) (sq + params.sq_off.head);
  ring->sq_tail = (_Atomic unsigned *) (sq + params.sq_off.tail);
  ring->sq_mask = *(unsigned *) (sq + params.sq_off.ring_mask);
  ring->sq_array = (unsigned *) (sq + params.sq_off.array);
  ring->cq_head = (_Atomic unsigned *) (cq + params.cq_off.head);
  ring->cq_tail = (_Atomic unsigned *) (cq + params.cq_off.tail);
  ring->cq_mask = *(unsigned *) (cq + params.cq_off.ring_mask);
  ring->cqes = (struct io_uring_cqe *) (cq + params.cq_off.cqes);
  return ring;
}

void
wtv_send_ring_destroy(wtv_send_ring *ring)
{
  if (ring == NULL)
    return;
  if (ring->sqes != NULL && ring->sqes != MAP_FAILED)
    munmap(ring->sqes, ring->sqes_size);
  if (ring->cq_map != NULL && ring->cq_map != MAP_FAILED)
    munmap(ring->cq_map, ring->cq_map_size);
  if (ring->sq_map != NULL && ring->sq_map != MAP_FAILED)
    munmap(ring->sq_map, ring->sq_map_size);
  close(ring->fd);
  free(ring);
}

unsigned
wtv_send_ring_capacity(const wtv_send_ring *ring)
{
  return ring->entries;
}

/// Moves the completions that have arrived into `results`; how many.
static unsigned
reap(wtv_send_ring *ring, long *results, unsigned count)
{
  unsigned head = atomic_load_explicit(ring->cq_head, memory_order_relaxed);
  unsigned tail = atomic_load_explicit(ring->cq_tail, memory_order_acquire);
  unsigned reaped = 0;
  for (; head != tail; head++, reaped++) {
    const struct io_uring_cqe *cqe = &ring->cqes[head & ring->cq_mask];
    if (cqe->user_data < count)
      results[cqe->user_data] = cqe->res;
  }
  atomic_store_explicit(ring->cq_head, head, memory_order_release);
  return reaped;
}

int
wtv_send_ring_send(wtv_send_ring *ring, const int *sockets, unsigned count, const void *bytes, size_t length,
                   long *results)
{
  if (count > ring->entries)
    count = ring->entries;
  if (ring->broken) {
    for (unsigned i = 0; i < count; i++)
      results[i] = -ECANCELED;
    return -1;
  }
  // The kernel takes requests only inside io_uring_enter (no polling thread),
  // so between calls the submission ring is ours, and empty.
  unsigned tail = atomic_load_explicit(ring->sq_tail, memory_order_relaxed);
  for (unsigned i = 0; i < count; i++) {
    unsigned index = (tail + i) & ring->sq_mask;
    struct io_uring_sqe *sqe = &ring->sqes[index];
    memset(sqe, 0, sizeof(*sqe));
    sqe->opcode = IORING_OP_SEND;
    sqe->fd = sockets[i];
    sqe->addr = (uint64_t) (uintptr_t) bytes;
    sqe->len = (uint32_t) length;
    // MSG_DONTWAIT also tells io_uring to complete a full socket with
    // -EAGAIN rather than wait for room.
    sqe->msg_flags = MSG_NOSIGNAL | MSG_DONTWAIT;
    sqe->user_data = i;
    ring->sq_array[index] = index;
    results[i] = -EIO;
  }
  atomic_store_explicit(ring->sq_tail, tail + count, memory_order_release);

  // Submit, then wait only for what the kernel took: a send of a socket
  // marked MSG_DONTWAIT completes while it is submitted, so the completions
  // are usually there at once and the wait costs no system call.
  // A kernel short of memory (EAGAIN) or of room for completions (EBUSY) is
  // asked again a few times; then the sends it has not taken are given up.
  unsigned submitted = 0, completed = 0, retries = 0;
  while (submitted < count) {
    long entered = syscall(__NR_io_uring_enter, ring->fd, count - submitted, 0, 0, NULL, 0);
    if (entered > 0) {
      submitted += (unsigned) entered;
      retries = 0;
    } else if (entered == 0 || (errno != EINTR && errno != EAGAIN && errno != EBUSY) || ++retries > 16) {
      break;
    }
    completed += reap(ring, results, count);
  }
  if (submitted < count) {
    // The kernel stopped taking requests: take back the ones it never saw,
    // which keep -ECANCELED in their results.
    atomic_store_explicit(ring->sq_tail, atomic_load_explicit(ring->sq_head, memory_order_acquire),
                          memory_order_release);
    for (unsigned i = submitted; i < count; i++)
      results[i] = -ECANCELED;
  }
  completed += reap(ring, results, count);
  while (completed < submitted) {
    if (syscall(__NR_io_uring_enter, ring->fd, 0, submitted - completed, IORING_ENTER_GETEVENTS, NULL, 0) < 0
        && errno != EINTR && errno != EAGAIN && errno != EBUSY) {
      ring->broken = 1;
      return -1;
    }
    completed += reap(ring, results, count);
  }
  return 0;
}
