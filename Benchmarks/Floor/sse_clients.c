/*
 * Many Server-Sent-Events subscribers in one process, for the fan-out
 * benchmark. Opens N connections to GET PATH on 127.0.0.1:PORT, prints
 * "ready N" once every stream has its response header, then prints the total
 * number of `update` events received ("events T") whenever it reaches a
 * multiple of N. Ends on SIGTERM or when stdin closes.
 *
 * Usage: sse_clients PORT PATH N
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static const char pattern[] = "\nevent: update\n";

struct stream {
  int fd;
  int matched;   /* bytes of `pattern` matched so far, in the body */
  int ready;     /* response header seen */
  int phase;     /* 0 response head, 1 chunk size line, 2 chunk data, 3 line end after the data */
  int head;      /* bytes of "\r\n\r\n" matched so far, in the response head */
  long remaining; /* chunk size, then its bytes not yet read */
};

/* Counts the `update` events of one stream's bytes: the chunked transfer coding
   is undone first, since a chunk may end in the middle of an event. */
static long
count_events(struct stream *stream, const char *bytes, ssize_t length)
{
  long found = 0;
  for (ssize_t b = 0; b < length; b++) {
    if (stream->phase == 2 && stream->matched == 0) {
      /* Outside a match only a line end can start one: skip to the next. */
      ssize_t span = length - b < stream->remaining ? length - b : stream->remaining;
      const char *end = memchr(bytes + b, '\n', (size_t) span);
      ssize_t skipped = end ? end - (bytes + b) : span;
      b += skipped;
      stream->remaining -= skipped;
      if (stream->remaining == 0)
        stream->phase = 3;
      if (b == length)
        break;
    }
    char c = bytes[b];
    switch (stream->phase) {
    case 0:
      stream->head = c == "\r\n\r\n"[stream->head] ? stream->head + 1 : (c == '\r' ? 1 : 0);
      if (stream->head == 4) {
        stream->phase = 1;
        stream->remaining = 0;
        stream->matched = 1; /* the body starts a line */
      }
      break;
    case 1:
      if (c >= '0' && c <= '9')
        stream->remaining = stream->remaining * 16 + (c - '0');
      else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
        stream->remaining = stream->remaining * 16 + ((c | 0x20) - 'a' + 10);
      else if (c == '\n')
        stream->phase = stream->remaining > 0 ? 2 : 4;
      break;
    case 2:
      if (c == pattern[stream->matched]) {
        if (++stream->matched == (int) sizeof(pattern) - 1) {
          stream->matched = 1;
          found++;
        }
      } else {
        stream->matched = c == '\n' ? 1 : 0;
      }
      if (--stream->remaining == 0)
        stream->phase = 3;
      break;
    case 3:
      if (c == '\n') {
        stream->phase = 1;
        stream->remaining = 0;
      }
      break;
    default:
      break;
    }
  }
  return found;
}

int
main(int argc, char **argv)
{
  if (argc != 4) {
    fprintf(stderr, "usage: %s PORT PATH N\n", argv[0]);
    return 2;
  }
  int port = atoi(argv[1]);
  const char *path = argv[2];
  int count = atoi(argv[3]);
  char request[1024];
  int request_length = snprintf(request, sizeof(request),
    "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n", path);

  struct stream *streams = calloc((size_t) count, sizeof(struct stream));
  int poll = epoll_create1(0);
  struct sockaddr_in address;
  memset(&address, 0, sizeof(address));
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t) port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

  for (int i = 0; i < count; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *) &address, sizeof(address)) != 0) {
      perror("connect");
      return 1;
    }
    if (write(fd, request, (size_t) request_length) != request_length) {
      perror("write");
      return 1;
    }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    streams[i].fd = fd;
    struct epoll_event event = { .events = EPOLLIN, .data.u32 = (uint32_t) i };
    epoll_ctl(poll, EPOLL_CTL_ADD, fd, &event);
  }
  struct epoll_event stdin_event = { .events = EPOLLIN, .data.u32 = (uint32_t) count };
  epoll_ctl(poll, EPOLL_CTL_ADD, 0, &stdin_event);

  long ready = 0, total = 0;
  static char buffer[1 << 16];
  struct epoll_event events[256];
  for (;;) {
    int n = epoll_wait(poll, events, 256, -1);
    if (n < 0 && errno == EINTR)
      continue;
    for (int e = 0; e < n; e++) {
      uint32_t index = events[e].data.u32;
      if (index == (uint32_t) count) {
        if (read(0, buffer, sizeof(buffer)) <= 0)
          return 0;
        continue;
      }
      struct stream *stream = &streams[index];
      ssize_t got = read(stream->fd, buffer, sizeof(buffer));
      if (got <= 0) {
        if (got < 0 && errno == EAGAIN)
          continue;
        fprintf(stderr, "stream %u closed\n", index);
        epoll_ctl(poll, EPOLL_CTL_DEL, stream->fd, NULL);
        close(stream->fd);
        continue;
      }
      if (!stream->ready) {
        stream->ready = 1;
        if (++ready == count) {
          printf("ready %ld\n", ready);
          fflush(stdout);
        }
      }
      for (long found = count_events(stream, buffer, got); found > 0; found--) {
        if (++total % count == 0) {
          printf("events %ld\n", total);
          fflush(stdout);
        }
      }
    }
  }
}
