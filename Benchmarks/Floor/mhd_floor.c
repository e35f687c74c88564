/*
 * The floor of the JSON-row benchmark: libmicrohttpd answering one fixed
 * body with fixed header fields, configured as WebTableView configures it
 * (epoll, a worker pool, 127.0.0.1), and doing nothing else per request.
 *
 * Usage: mhd_floor BODY_FILE CONTENT_TYPE ETAG [THREADS]
 * Prints "listening on http://127.0.0.1:PORT" and serves until SIGINT/SIGTERM.
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct MHD_Response *answer;

static enum MHD_Result
handle(void *cls, struct MHD_Connection *connection, const char *url,
       const char *method, const char *version, const char *upload,
       size_t *upload_size, void **req_cls)
{
  (void) cls; (void) url; (void) version; (void) upload;
  /* First call: wait for the (empty) body, as WebTableView does. */
  if (NULL == *req_cls) {
    *req_cls = (void *) 1;
    return MHD_YES;
  }
  if (0 != *upload_size) {
    *upload_size = 0;
    return MHD_YES;
  }
  if (0 != strcmp(method, "GET") && 0 != strcmp(method, "HEAD"))
    return MHD_NO;
  return MHD_queue_response(connection, MHD_HTTP_OK, answer);
}

int
main(int argc, char **argv)
{
  if (argc < 4) {
    fprintf(stderr, "usage: %s BODY_FILE CONTENT_TYPE ETAG [THREADS]\n", argv[0]);
    return 2;
  }
  FILE *file = fopen(argv[1], "rb");
  if (NULL == file) {
    perror(argv[1]);
    return 1;
  }
  static char body[1 << 20];
  size_t size = fread(body, 1, sizeof(body), file);
  fclose(file);
  unsigned int threads = argc > 4 ? (unsigned int) atoi(argv[4]) : 2;

  answer = MHD_create_response_from_buffer(size, body, MHD_RESPMEM_PERSISTENT);
  MHD_add_response_header(answer, "Content-Type", argv[2]);
  MHD_add_response_header(answer, "ETag", argv[3]);

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &signals, NULL);

  struct sockaddr_in address;
  memset(&address, 0, sizeof(address));
  address.sin_family = AF_INET;
  address.sin_port = 0;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  struct MHD_Daemon *daemon = MHD_start_daemon(
    MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC, 0, NULL, NULL, handle, NULL,
    MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &address,
    MHD_OPTION_CONNECTION_LIMIT, (unsigned int) 10000,
    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) 30,
    MHD_OPTION_THREAD_POOL_SIZE, threads,
    MHD_OPTION_END);
  if (NULL == daemon) {
    fprintf(stderr, "mhd_floor: cannot listen\n");
    return 1;
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  printf("listening on http://127.0.0.1:%u\n", (unsigned int) info->port);
  fflush(stdout);

  int received;
  sigdelset(&signals, SIGPIPE);
  sigwait(&signals, &received);
  MHD_stop_daemon(daemon);
  MHD_destroy_response(answer);
  return 0;
}
