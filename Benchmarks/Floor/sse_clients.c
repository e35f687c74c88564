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
  int matched;   /* bytes of `pattern` matched so far */
  int ready;     /* response header seen */
};

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
      for (ssize_t b = 0; b < got; b++) {
        char c = buffer[b];
        if (c == pattern[stream->matched]) {
          if (++stream->matched == (int) sizeof(pattern) - 1) {
            stream->matched = 1;
            if (++total % count == 0) {
              printf("events %ld\n", total);
              fflush(stdout);
            }
          }
        } else {
          stream->matched = c == '\n' ? 1 : 0;
        }
      }
    }
  }
}
