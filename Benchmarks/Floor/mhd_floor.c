/*
 * The floor of the JSON-row benchmarks: libmicrohttpd answering fixed
 * bodies with fixed header fields, configured as WebTableView configures it
 * (epoll, a worker pool, 127.0.0.1), and doing nothing else per request.
 *
 * Usage: mhd_floor BODY_FILE CONTENT_TYPE ETAG [THREADS]
 *          one answer, whatever the path
 *        mhd_floor --paths ANSWERS_FILE CONTENT_TYPE [THREADS]
 *          an answer per path, built at start-up and found by the path's
 *          hash per request (the reads benchmark: many rows, each its own
 *          bytes); other paths are 404. ANSWERS_FILE holds records of
 *          "PATH\tETAG\tLENGTH\n" followed by LENGTH bytes of body.
 * Prints "listening on http://127.0.0.1:PORT" and serves until SIGINT/SIGTERM.
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct MHD_Response *answer;

/* The answers by path (--paths): open addressing over a power of two. */
struct kept {
  char *path;
  uint64_t hash;
  struct MHD_Response *response;
};
static struct kept *answers;
static size_t answer_slots;

static uint64_t
path_hash(const char *path)
{
  uint64_t hash = 14695981039346656037ULL; /* FNV-1a */
  for (; *path; path++)
    hash = (hash ^ (unsigned char) *path) * 1099511628211ULL;
  return hash;
}

static struct kept *
slot_for(const char *path, uint64_t hash)
{
  size_t slot = hash & (answer_slots - 1);
  while (NULL != answers[slot].path
         && (answers[slot].hash != hash || 0 != strcmp(answers[slot].path, path)))
    slot = (slot + 1) & (answer_slots - 1);
  return &answers[slot];
}

static int
load_answers(const char *file_name, const char *content_type)
{
  FILE *file = fopen(file_name, "rb");
  if (NULL == file) {
    perror(file_name);
    return -1;
  }
  size_t count = 0;
  answer_slots = 1024;
  answers = calloc(answer_slots, sizeof(*answers));
  char path[4096], etag[256];
  size_t length;
  while (3 == fscanf(file, "%4095[^\t]\t%255[^\t]\t%zu\n", path, etag, &length)) {
    if ((count + 1) * 2 > answer_slots) {
      struct kept *old = answers;
      size_t old_slots = answer_slots;
      answer_slots *= 2;
      answers = calloc(answer_slots, sizeof(*answers));
      for (size_t i = 0; i < old_slots; i++)
        if (NULL != old[i].path)
          *slot_for(old[i].path, old[i].hash) = old[i];
      free(old);
    }
    char *body = malloc(length);
    if (length != fread(body, 1, length, file)) {
      fprintf(stderr, "%s: short body for %s\n", file_name, path);
      return -1;
    }
    uint64_t hash = path_hash(path);
    struct kept *slot = slot_for(path, hash);
    slot->path = strdup(path);
    slot->hash = hash;
    slot->response = MHD_create_response_from_buffer(length, body, MHD_RESPMEM_MUST_FREE);
    MHD_add_response_header(slot->response, "Content-Type", content_type);
    MHD_add_response_header(slot->response, "ETag", etag);
    count++;
  }
  fclose(file);
  return count > 0 ? 0 : -1;
}

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
  if (NULL == answers)
    return MHD_queue_response(connection, MHD_HTTP_OK, answer);
  struct kept *kept = slot_for(url, path_hash(url));
  if (NULL == kept->path)
    return MHD_NO;
  return MHD_queue_response(connection, MHD_HTTP_OK, kept->response);
}

int
main(int argc, char **argv)
{
  unsigned int threads;
  if (argc >= 4 && 0 == strcmp(argv[1], "--paths")) {
    if (0 != load_answers(argv[2], argv[3]))
      return 1;
    threads = argc > 4 ? (unsigned int) atoi(argv[4]) : 2;
  } else if (argc >= 4) {
    FILE *file = fopen(argv[1], "rb");
    if (NULL == file) {
      perror(argv[1]);
      return 1;
    }
    static char body[1 << 20];
    size_t size = fread(body, 1, sizeof(body), file);
    fclose(file);
    threads = argc > 4 ? (unsigned int) atoi(argv[4]) : 2;
    answer = MHD_create_response_from_buffer(size, body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(answer, "Content-Type", argv[2]);
    MHD_add_response_header(answer, "ETag", argv[3]);
  } else {
    fprintf(stderr, "usage: %s BODY_FILE CONTENT_TYPE ETAG [THREADS]\n"
                    "       %s --paths ANSWERS_FILE CONTENT_TYPE [THREADS]\n", argv[0], argv[0]);
    return 2;
  }

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
  if (NULL != answer)
    MHD_destroy_response(answer);
  return 0;
}
