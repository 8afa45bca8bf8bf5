// A minimal closed-loop HTTP/1.1 load generator that records each request's latency once, without
// wrk's correction for coordinated omission (docs/performance.md, "The create's tail on the wire"): N keep-alive connections to 127.0.0.1:<port>, one request in
// flight on each, a new Idempotency-Key per request, latency on CLOCK_MONOTONIC from just before the
// request's write() to the end of its response (Content-Length bodies only). `pnpm bench:alternate
// --client closed-loop` builds and runs it (closed-loop.ts); by hand:
//
//   cc -O2 -o /tmp/closed-loop-client bench/src/closed-loop-client.c
//   printf 'POST /v1/invoices HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer %s\r\n' "$KEY" > /tmp/head
//   node -e 'import("./bench/src/bodies.mjs").then((m) => process.stdout.write(m.INVOICE_BODY))' > /tmp/body
//   taskset -c 1 /tmp/closed-loop-client <port> 50 10 /tmp/head /tmp/body [fixed key]
//
// It prints one line of figures (closed-loop.ts parses it), with `first50`/`firstmax`: the median and
// the slowest of the connections' first answers (each connection sends its first request as soon as
// it is connected, as wrk's do, so these show how long the server takes to take on N new connections
// under their own load). A sixth argument is the one Idempotency-Key of every request (a replay), else
// each request gets a new one.
#define _GNU_SOURCE
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
#include <time.h>
#include <unistd.h>
typedef struct { int fd; double start; char buf[65536]; int len; int want; int answered; } conn;
static double now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static char head[8192], body[8192]; static int bodylen; static long counter, bad; static int prefix;
static const char *fixed_key;
static void send_req(conn *c) {
  char req[16384];
  int n = fixed_key != NULL
    ? snprintf(req, sizeof req, "%sIdempotency-Key: %s\r\nContent-Length: %d\r\n\r\n%s", head, fixed_key, bodylen, body)
    : snprintf(req, sizeof req, "%sIdempotency-Key: closed-loop-%d-%ld\r\nContent-Length: %d\r\n\r\n%s", head, prefix, ++counter, bodylen, body);
  if (n <= 0 || n >= (int)sizeof req) { fprintf(stderr, "closed-loop: request too long\n"); exit(1); }
  c->start = now_ms(); c->len = 0; c->want = -1;
  if (write(c->fd, req, n) != n) { perror("closed-loop: write"); exit(1); }
}
static int cmp(const void *a, const void *b) { float x = *(float *)a, y = *(float *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage: closed-loop-client port conns seconds headfile bodyfile [fixed key]\n"); return 2; }
  if (argc > 6) fixed_key = argv[6];
  int port = atoi(argv[1]), nconn = atoi(argv[2]); double secs = atof(argv[3]);
  FILE *f = fopen(argv[4], "r"); int hl = fread(head, 1, sizeof head - 1, f); head[hl] = 0; fclose(f);
  f = fopen(argv[5], "r"); bodylen = fread(body, 1, sizeof body - 1, f); body[bodylen] = 0; fclose(f);
  prefix = getpid() ^ (int)time(NULL);
  int ep = epoll_create1(0); conn *cs = calloc(nconn, sizeof(conn));
  size_t cap = 20000000, nl = 0, nf = 0; float *lat = malloc(cap * sizeof(float)), *first = malloc(nconn * sizeof(float));
  double t0 = now_ms(), end = t0 + secs * 1e3;
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) }; inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  for (int i = 0; i < nconn; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    if (connect(fd, (void *)&a, sizeof a)) { perror("closed-loop: connect"); return 1; }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); fcntl(fd, F_SETFL, O_NONBLOCK);
    cs[i].fd = fd; struct epoll_event e = { .events = EPOLLIN, .data.ptr = &cs[i] }; epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
    send_req(&cs[i]);
  }
  struct epoll_event ev[256];
  while (now_ms() < end) {
    int n = epoll_wait(ep, ev, 256, 100);
    for (int k = 0; k < n; k++) {
      conn *c = ev[k].data.ptr;
      for (;;) {
        ssize_t r = read(c->fd, c->buf + c->len, sizeof c->buf - c->len - 1);
        if (r < 0 && errno == EAGAIN) break;
        if (r <= 0) { fprintf(stderr, "closed-loop: the server closed a connection or a read failed\n"); return 1; }
        c->len += r; c->buf[c->len] = 0;
        if (c->want < 0) {
          char *h = strstr(c->buf, "\r\n\r\n"); if (!h) continue;
          char *cl = strcasestr(c->buf, "content-length:"); if (!cl) { fprintf(stderr, "closed-loop: a response without Content-Length\n"); return 1; }
          c->want = (h + 4 - c->buf) + atoi(cl + 15);
        }
        if (c->len >= c->want) {
          double d = now_ms() - c->start;
          if (strncmp(c->buf, "HTTP/1.1 2", 10) != 0) bad++;
          if (nl < cap) lat[nl++] = (float)d;
          if (c->answered++ == 0) first[nf++] = (float)d;
          if (now_ms() < end) send_req(c);
          break;
        }
      }
    }
  }
  double el = (now_ms() - t0) / 1e3;
  qsort(lat, nl, sizeof(float), cmp);
  long slow = 0; for (size_t i = 0; i < nl; i++) if (lat[i] > 50) slow++;
  #define P(q) lat[(size_t)((q) / 100.0 * nl) < nl ? (size_t)((q) / 100.0 * nl) : nl - 1]
  if (nl == 0) { fprintf(stderr, "closed-loop: no response\n"); return 1; }
  qsort(first, nf, sizeof(float), cmp);
  printf("closed-loop: completed=%zu seconds=%.3f p50=%.3f p90=%.3f p99=%.3f p99.5=%.3f p99.9=%.3f max=%.3f over50ms=%ld non2xx=%ld first50=%.3f firstmax=%.3f\n",
    nl, el, P(50), P(90), P(99), P(99.5), P(99.9), lat[nl - 1], slow, bad, first[nf / 2], first[nf - 1]);
  return 0;
}
