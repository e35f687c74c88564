/*
 * The floor of event-stream fan-out, for the fan-out benchmark: the least a
 * server with one TCP connection per subscriber can do to deliver one event.
 * It accepts connections on 127.0.0.1 and answers a GET with the headers of a
 * chunked text/event-stream response, keeping the connection; a POST makes a
 * change: one `update` event of SIZE bytes is written to every stream it
 * holds — one send() each, nothing else: no routing, no queue, no lock — and
 * the POST is answered 204.
 *
 * With --io-uring, the floor of batched sends instead: the event goes to every
 * stream through the server's own io_uring code (Sources/CSendRing: up to 512
 * IORING_OP_SEND requests, MSG_DONTWAIT, a system call), as the server does
 * where the kernel allows it (docs/ARCHITECTURE.md, Concurrency). Build it
 * with Sources/CSendRing/send_ring.c (scripts/bench/run.sh).
 *
 * Prints "listening on http://127.0.0.1:P" once listening. Ends on SIGTERM.
 *
 * Usage: sse_floor SIZE [--io-uring]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "send_ring.h"

/* The io_uring of --io-uring: the product's own (Sources/CSendRing), so the two
 * compare the same sends, and what each socket took. */
static wtv_send_ring *ring;
static long *results;

/* Sends the chunk to every stream, a batch of sends a system call; each must take it whole. */
static void
ring_send_all(const int *streams, int count, const char *chunk, int length)
{
  int capacity = (int) wtv_send_ring_capacity(ring);
  for (int done = 0; done < count; done += capacity) {
    int batch = count - done < capacity ? count - done : capacity;
    if (wtv_send_ring_send(ring, streams + done, (unsigned) batch, chunk, (size_t) length, results) != 0) {
      fprintf(stderr, "io_uring failed\n");
      exit(1);
    }
    for (int i = 0; i < batch; i++)
      if (results[i] != length) {
        fprintf(stderr, "send: %ld\n", results[i]);
        exit(1);
      }
  }
}

static const char header[] =
  "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
  "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n";

int
main(int argc, char **argv)
{
  if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--io-uring") != 0)) {
    fprintf(stderr, "usage: %s SIZE [--io-uring]\n", argv[0]);
    return 2;
  }
  if (argc == 3) {
    ring = wtv_send_ring_create(512);
    results = malloc(sizeof(long) * 512);
    if (ring == NULL) {
      perror("io_uring");
      return 1;
    }
  }
  int size = atoi(argv[1]);
  if (size < 64 || size > 60000) {
    fprintf(stderr, "SIZE must be 64...60000\n");
    return 2;
  }
  /* One chunk holding one event: "event: update\nid: N\ndata: xxx…\n\n". */
  char *chunk = malloc((size_t) size + 64);
  char *event = malloc((size_t) size + 1);
  int prefix = snprintf(event, (size_t) size, "event: update\nid: 1\ndata: ");
  memset(event + prefix, 'x', (size_t) (size - prefix - 2));
  memcpy(event + size - 2, "\n\n", 2);
  int chunk_length = snprintf(chunk, 16, "%x\r\n", size);
  memcpy(chunk + chunk_length, event, (size_t) size);
  chunk_length += size;
  memcpy(chunk + chunk_length, "\r\n", 2);
  chunk_length += 2;

  int listener = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in address;
  memset(&address, 0, sizeof(address));
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  if (bind(listener, (struct sockaddr *) &address, sizeof(address)) != 0 || listen(listener, 4096) != 0
      || getsockname(listener, (struct sockaddr *) &address, &length) != 0) {
    perror("listen");
    return 1;
  }
  printf("listening on http://127.0.0.1:%d\n", ntohs(address.sin_port));
  fflush(stdout);

  int poll = epoll_create1(0);
  struct epoll_event listen_event = { .events = EPOLLIN, .data.fd = listener };
  epoll_ctl(poll, EPOLL_CTL_ADD, listener, &listen_event);
  int capacity = 1024, count = 0;
  int *streams = malloc(sizeof(int) * (size_t) capacity);
  static char buffer[1 << 16];
  struct epoll_event events[256];
  for (;;) {
    int n = epoll_wait(poll, events, 256, -1);
    if (n < 0 && errno == EINTR)
      continue;
    for (int e = 0; e < n; e++) {
      int fd = events[e].data.fd;
      if (fd == listener) {
        int client = accept(listener, NULL, NULL);
        if (client < 0)
          continue;
        struct epoll_event client_event = { .events = EPOLLIN, .data.fd = client };
        epoll_ctl(poll, EPOLL_CTL_ADD, client, &client_event);
      } else {
        /* A request (read whole, as it is short) or a client going away. */
        ssize_t got = read(fd, buffer, sizeof(buffer));
        if (got <= 0) {
          epoll_ctl(poll, EPOLL_CTL_DEL, fd, NULL);
          close(fd);
          for (int s = 0; s < count; s++)
            if (streams[s] == fd)
              streams[s] = streams[--count];
          continue;
        }
        if (strncmp(buffer, "POST ", 5) == 0) {
          if (ring != NULL)
            ring_send_all(streams, count, chunk, chunk_length);
          else
            for (int s = 0; s < count; s++) {
              if (send(streams[s], chunk, (size_t) chunk_length, MSG_NOSIGNAL) != chunk_length) {
                perror("send");
                return 1;
              }
            }
          static const char done[] = "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n";
          send(fd, done, sizeof(done) - 1, MSG_NOSIGNAL);
          epoll_ctl(poll, EPOLL_CTL_DEL, fd, NULL);
          close(fd);
          continue;
        }
        if (send(fd, header, sizeof(header) - 1, MSG_NOSIGNAL) != (ssize_t) sizeof(header) - 1) {
          perror("send header");
          return 1;
        }
        if (count == capacity) {
          capacity *= 2;
          streams = realloc(streams, sizeof(int) * (size_t) capacity);
        }
        streams[count++] = fd;
      }
    }
  }
}
