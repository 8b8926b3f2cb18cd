/*
 * Reproduction: one paused transfer and its sibling streams on one HTTP/2
 * connection, in libcurl's multi interface (curl_multi_perform and
 * curl_multi_poll, as the Swift transport drives it).
 *
 * One run, on a fresh multi handle (CURLPIPE_MULTIPLEX, CURLOPT_PIPEWAIT):
 *   1. transfer A (--big) starts;
 *   2. at A's first body chunk A is paused:
 *        --pause  the write callback returns CURL_WRITEFUNC_PAUSE, so libcurl
 *                 pauses the transfer (with --api-pause: the chunk is taken
 *                 and the loop calls curl_easy_pause(CURLPAUSE_ALL) after
 *                 curl_multi_perform returns, as the transport's pause()
 *                 does);
 *        --hold   workaround: libcurl is never told; the write callback keeps
 *                 taking bytes into an application buffer and delivers none;
 *   3. --start-ms later (the server has meanwhile filled the socket with A's
 *      data) --siblings transfers of --small start, on A's connection;
 *   4. they have until --pause-ms after the pause point to finish;
 *   5. A is resumed (curl_easy_pause(CURLPAUSE_CONT), or the held bytes are
 *      delivered first) and everything gets --after-ms more to finish.
 * Each run prints one line; A's bytes are counted and, with --check FILE,
 * compared with the served file byte by byte. --no-multiplex (CURLPIPE_NOTHING,
 * no PIPEWAIT) gives every transfer a connection of its own, HTTP/2 still.
 *
 * Every wait is bounded, and alarm() ends the process in any case.
 *
 * Build: cc repro.c $(pkg-config --cflags --libs libcurl) -o repro
 */
#include <curl/curl.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIBLINGS 16

enum mode { MODE_PAUSE, MODE_HOLD };

struct xfer {
  CURL *easy;
  int big;                 /* A, the transfer that gets paused */
  int done;                /* CURLMSG_DONE seen */
  CURLcode result;
  long done_ms;            /* ms since the run started */
  int first_chunk_seen;
  int paused;              /* the application considers it paused */
  int want_api_pause;      /* --api-pause: curl_easy_pause() still to do */
  curl_off_t delivered;    /* bytes handed on to the "consumer" */
  curl_off_t mismatch_at;  /* first offset differing from --check, or -1 */
  curl_socket_t sock;      /* the socket this handle opened, if any */
  unsigned char *held;     /* --hold: bytes kept while paused */
  size_t held_len, held_cap;
};

static struct {
  const char *base;        /* e.g. https://127.0.0.1:8443 */
  const char *big_path;
  const char *small_path;
  const char *cacert;
  const char *check_file;
  enum mode mode;
  int api_pause;
  int http11;
  int runs;
  int siblings;
  long start_ms;
  long pause_ms;
  long after_ms;
  long buffer_size;        /* CURLOPT_BUFFERSIZE, 0: libcurl's default */
  long poll_ms;            /* longest curl_multi_poll wait (transport: 1 s) */
  int no_multiplex;        /* CURLPIPE_NOTHING: a connection per transfer */
  int verbose;
} opt = {
  NULL, "/big.bin", "/small.bin", NULL, NULL, MODE_PAUSE, 0, 0, 5, 3,
  200, 1500, 3000, 0, 1000, 0, 0
};

static unsigned char *check_data;
static size_t check_len;
static struct timespec run_t0;
static struct xfer *big_xfer;

static long now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long)((ts.tv_sec - run_t0.tv_sec) * 1000 +
                (ts.tv_nsec - run_t0.tv_nsec) / 1000000);
}

static void on_alarm(int sig)
{
  static const char msg[] = "HARD DEADLINE reached, exiting\n";
  (void)sig;
  if(write(2, msg, sizeof(msg) - 1) < 0) {
    /* nothing more to do */
  }
  _exit(3);
}

static void consume(struct xfer *x, const unsigned char *p, size_t n)
{
  if(check_data && x->big && x->mismatch_at < 0) {
    size_t i;
    for(i = 0; i < n; i++) {
      size_t off = (size_t)x->delivered + i;
      if(off >= check_len || check_data[off] != p[i]) {
        x->mismatch_at = (curl_off_t)off;
        break;
      }
    }
  }
  x->delivered += (curl_off_t)n;
}

static int hold(struct xfer *x, const char *p, size_t n)
{
  if(x->held_len + n > x->held_cap) {
    size_t cap = x->held_cap ? x->held_cap : (size_t)1 << 20;
    unsigned char *q;
    while(cap < x->held_len + n)
      cap *= 2;
    q = realloc(x->held, cap);
    if(!q)
      return 0;
    x->held = q;
    x->held_cap = cap;
  }
  memcpy(x->held + x->held_len, p, n);
  x->held_len += n;
  return 1;
}

static size_t on_write(char *ptr, size_t size, size_t nmemb, void *userp)
{
  struct xfer *x = userp;
  size_t n = size * nmemb;

  if(x->big && !x->first_chunk_seen) {
    x->first_chunk_seen = 1;
    x->paused = 1;
    if(opt.mode == MODE_PAUSE && opt.api_pause) {
      x->want_api_pause = 1;
      consume(x, (unsigned char *)ptr, n);
      return n;
    }
  }
  if(x->paused) {
    if(opt.mode == MODE_PAUSE)
      /* libcurl keeps this chunk and hands it over again after the resume */
      return CURL_WRITEFUNC_PAUSE;
    return hold(x, ptr, n) ? n : 0; /* 0 fails the transfer */
  }
  consume(x, (unsigned char *)ptr, n);
  return n;
}

static int on_sockopt(void *userp, curl_socket_t fd, curlsocktype purpose)
{
  struct xfer *x = userp;
  (void)purpose;
  x->sock = fd;
  return CURL_SOCKOPT_OK;
}

static void start(CURLM *m, struct xfer *x, const char *path)
{
  char url[1024];
  CURL *e = curl_easy_init();
  if(!e) {
    fprintf(stderr, "curl_easy_init failed\n");
    exit(2);
  }
  snprintf(url, sizeof(url), "%s%s", opt.base, path);
  curl_easy_setopt(e, CURLOPT_URL, url);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
  curl_easy_setopt(e, CURLOPT_PRIVATE, x);
  curl_easy_setopt(e, CURLOPT_SOCKOPTFUNCTION, on_sockopt);
  curl_easy_setopt(e, CURLOPT_SOCKOPTDATA, x);
  curl_easy_setopt(e, CURLOPT_PIPEWAIT, opt.no_multiplex ? 0L : 1L);
  curl_easy_setopt(e, CURLOPT_HTTP_VERSION,
                   opt.http11 ? CURL_HTTP_VERSION_1_1 :
                   CURL_HTTP_VERSION_2TLS);
  if(opt.cacert)
    curl_easy_setopt(e, CURLOPT_CAINFO, opt.cacert);
  else {
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if(opt.buffer_size)
    curl_easy_setopt(e, CURLOPT_BUFFERSIZE, opt.buffer_size);
  curl_easy_setopt(e, CURLOPT_VERBOSE, (long)opt.verbose);
  x->easy = e;
  x->sock = CURL_SOCKET_BAD;
  x->mismatch_at = -1;
  curl_multi_add_handle(m, e);
}

/* One round of the event loop: perform, collect finished transfers, poll
   (at most opt.poll_ms, and never past `until`). */
static void drive(CURLM *m, long until)
{
  int running = 0;
  int left = 0;
  long wait;
  CURLMsg *msg;

  curl_multi_perform(m, &running);
  if(big_xfer && big_xfer->want_api_pause) {
    big_xfer->want_api_pause = 0;
    curl_easy_pause(big_xfer->easy, CURLPAUSE_ALL);
  }
  while((msg = curl_multi_info_read(m, &left))) {
    if(msg->msg == CURLMSG_DONE) {
      struct xfer *x = NULL;
      curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
      if(x && !x->done) {
        x->done = 1;
        x->result = msg->data.result;
        x->done_ms = now_ms();
      }
    }
  }
  wait = until - now_ms();
  if(wait > opt.poll_ms)
    wait = opt.poll_ms;
  if(wait > 0)
    curl_multi_poll(m, NULL, 0, (int)wait, NULL);
}

/* bytes waiting in the kernel's receive queue of the transfer's socket */
static long queued_bytes(const struct xfer *x)
{
  int n = 0;
  if(x->sock == CURL_SOCKET_BAD || ioctl(x->sock, FIONREAD, &n) < 0)
    return -1;
  return n;
}

/* finished, without error, with as many bytes as the response announced */
static int complete(const struct xfer *x)
{
  curl_off_t length = -1;
  if(!x->done || x->result != CURLE_OK)
    return 0;
  if(x->big && check_data)
    return x->delivered == (curl_off_t)check_len && x->mismatch_at < 0;
  curl_easy_getinfo(x->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  return length < 0 || x->delivered == length;
}

struct tally {
  int sibling_stall;
  int sibling_never;
  int big_incomplete;
  int setup_error;
};

#define ADD(...) \
  (len += snprintf(line + len, sizeof(line) - len, __VA_ARGS__))

static void run_once(int run, struct tally *t)
{
  CURLM *m = curl_multi_init();
  struct xfer a;
  struct xfer b[MAX_SIBLINGS];
  long t_pause, t_sib, t_resume, deadline, queued;
  long a_port = -1, a_ver = 0, conns = 0;
  curl_off_t a_held;
  int i, early = 0, later = 0, never = 0, shared = 1;
  size_t len = 0;
  char line[1024];

  clock_gettime(CLOCK_MONOTONIC, &run_t0);
  memset(&a, 0, sizeof(a));
  memset(b, 0, sizeof(b));
  curl_multi_setopt(m, CURLMOPT_PIPELINING,
                    opt.no_multiplex ? CURLPIPE_NOTHING : CURLPIPE_MULTIPLEX);

  /* 1. A starts; 2. it is paused at its first body chunk */
  a.big = 1;
  big_xfer = &a;
  start(m, &a, opt.big_path);
  deadline = now_ms() + 5000;
  while(!a.first_chunk_seen && !a.done && now_ms() < deadline)
    drive(m, deadline);
  if(!a.first_chunk_seen) {
    printf("run %d: SETUP ERROR: the big transfer got no body (%s)\n", run,
           a.done ? curl_easy_strerror(a.result) : "timeout");
    t->setup_error++;
    goto cleanup;
  }
  t_pause = now_ms();
  curl_easy_getinfo(a.easy, CURLINFO_LOCAL_PORT, &a_port);
  curl_easy_getinfo(a.easy, CURLINFO_HTTP_VERSION, &a_ver);

  /* 3. the server sends A's data meanwhile; then the siblings start */
  deadline = t_pause + opt.start_ms;
  while(now_ms() < deadline)
    drive(m, deadline);
  queued = queued_bytes(&a);
  a_held = (curl_off_t)a.held_len;
  t_sib = now_ms();
  for(i = 0; i < opt.siblings; i++)
    start(m, &b[i], opt.small_path);

  /* 4. A stays paused until t_pause + pause_ms */
  deadline = t_pause + opt.pause_ms;
  while(now_ms() < deadline)
    drive(m, deadline);
  for(i = 0; i < opt.siblings; i++)
    early += complete(&b[i]);

  /* 5. resume A, then wait for everything */
  t_resume = now_ms();
  a.paused = 0;
  if(opt.mode == MODE_PAUSE)
    curl_easy_pause(a.easy, CURLPAUSE_CONT);
  else {
    consume(&a, a.held, a.held_len);
    free(a.held);
    a.held = NULL;
    a.held_len = a.held_cap = 0;
  }
  deadline = t_resume + opt.after_ms;
  for(;;) {
    int all = a.done;
    for(i = 0; i < opt.siblings; i++)
      all = all && b[i].done;
    if(all || now_ms() >= deadline)
      break;
    drive(m, deadline);
  }

  /* the report; the same local port means the same TCP connection */
  curl_easy_getinfo(a.easy, CURLINFO_NUM_CONNECTS, &conns);
  for(i = 0; i < opt.siblings; i++) {
    long port = -1, n = 0;
    curl_easy_getinfo(b[i].easy, CURLINFO_LOCAL_PORT, &port);
    curl_easy_getinfo(b[i].easy, CURLINFO_NUM_CONNECTS, &n);
    conns += n;
    shared = shared && port == a_port;
    if(!complete(&b[i]))
      never++;
    else if(b[i].done_ms >= t_resume)
      later++;
  }
  ADD("run %d [%s %s, %ld conn%s%s]: ", run,
      a_ver == CURL_HTTP_VERSION_2_0 ? "h2" :
      a_ver == CURL_HTTP_VERSION_1_1 ? "http/1.1" : "http/?",
      opt.mode == MODE_HOLD ? "hold" : opt.api_pause ? "api-pause" : "pause",
      conns, conns == 1 ? "" : "s", conns == 1 && shared ? ", shared" : "");
  if(opt.mode == MODE_PAUSE)
    ADD("%ld B waiting in the socket; ", queued);
  else
    ADD("%" CURL_FORMAT_CURL_OFF_T " B held; ", a_held);

  if(early == opt.siblings) {
    long last = 0;
    for(i = 0; i < opt.siblings; i++)
      if(b[i].done_ms - t_sib > last)
        last = b[i].done_ms - t_sib;
    ADD("siblings %d/%d done in %ld ms; ", early, opt.siblings, last);
  }
  else {
    t->sibling_stall++;
    ADD("sibling STALLED (%d/%d done in the %ld ms before the resume",
        early, opt.siblings, t_resume - t_sib);
    if(later)
      ADD(", %d after it", later);
    if(never) {
      t->sibling_never++;
      ADD(", %d NEVER (%ld ms more)", never, opt.after_ms);
    }
    ADD("); ");
  }

  if(complete(&a)) {
    if(a.done_ms >= t_resume)
      ADD("resumed done in %ld ms", a.done_ms - t_resume);
    else
      ADD("resumed done (its transfer had ended while held)");
    ADD(", %" CURL_FORMAT_CURL_OFF_T " bytes%s", a.delivered,
        check_data ? ", content ok" : "");
  }
  else {
    t->big_incomplete++;
    if(a.done)
      ADD("resumed FAILED: %s, %" CURL_FORMAT_CURL_OFF_T " bytes",
          curl_easy_strerror(a.result), a.delivered);
    else
      ADD("resumed NEVER FINISHED (%" CURL_FORMAT_CURL_OFF_T
          " bytes in %ld ms)", a.delivered, opt.after_ms);
    if(a.mismatch_at >= 0)
      ADD(", content differs at offset %" CURL_FORMAT_CURL_OFF_T,
          a.mismatch_at);
  }
  printf("%s\n", line);
  fflush(stdout);

cleanup:
  for(i = 0; i < opt.siblings; i++) {
    if(b[i].easy) {
      curl_multi_remove_handle(m, b[i].easy);
      curl_easy_cleanup(b[i].easy);
    }
  }
  curl_multi_remove_handle(m, a.easy);
  curl_easy_cleanup(a.easy);
  free(a.held);
  curl_multi_cleanup(m);
  big_xfer = NULL;
}

static void usage(const char *argv0)
{
  fprintf(stderr,
    "usage: %s --base https://127.0.0.1:PORT [--pause|--api-pause|--hold]\n"
    "   [--http1.1] [--runs N] [--siblings K] [--big PATH] [--small PATH]\n"
    "   [--cacert FILE] [--check FILE] [--start-ms MS] [--pause-ms MS]\n"
    "   [--after-ms MS] [--buffer-size BYTES] [--poll-ms MS] [--no-multiplex]\n"
    "   [--verbose]\n",
    argv0);
  exit(2);
}

static void load_check_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  long size = -1;
  if(f && !fseek(f, 0, SEEK_END))
    size = ftell(f);
  if(size < 0 || fseek(f, 0, SEEK_SET)) {
    fprintf(stderr, "cannot read %s: %s\n", path, strerror(errno));
    exit(2);
  }
  check_len = (size_t)size;
  check_data = malloc(check_len ? check_len : 1);
  if(!check_data || fread(check_data, 1, check_len, f) != check_len) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(2);
  }
  fclose(f);
}

int main(int argc, char **argv)
{
  struct tally t = {0, 0, 0, 0};
  int i;

  for(i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if(!strcmp(a, "--pause"))
      opt.mode = MODE_PAUSE;
    else if(!strcmp(a, "--api-pause")) {
      opt.mode = MODE_PAUSE;
      opt.api_pause = 1;
    }
    else if(!strcmp(a, "--hold"))
      opt.mode = MODE_HOLD;
    else if(!strcmp(a, "--http1.1"))
      opt.http11 = 1;
    else if(!strcmp(a, "--no-multiplex"))
      opt.no_multiplex = 1;
    else if(!strcmp(a, "--verbose"))
      opt.verbose = 1;
    else if(!v)
      usage(argv[0]);
    else {
      i++;
      if(!strcmp(a, "--base"))
        opt.base = v;
      else if(!strcmp(a, "--big"))
        opt.big_path = v;
      else if(!strcmp(a, "--small"))
        opt.small_path = v;
      else if(!strcmp(a, "--cacert"))
        opt.cacert = v;
      else if(!strcmp(a, "--check"))
        opt.check_file = v;
      else if(!strcmp(a, "--runs"))
        opt.runs = atoi(v);
      else if(!strcmp(a, "--siblings"))
        opt.siblings = atoi(v);
      else if(!strcmp(a, "--start-ms"))
        opt.start_ms = atol(v);
      else if(!strcmp(a, "--pause-ms"))
        opt.pause_ms = atol(v);
      else if(!strcmp(a, "--after-ms"))
        opt.after_ms = atol(v);
      else if(!strcmp(a, "--buffer-size"))
        opt.buffer_size = atol(v);
      else if(!strcmp(a, "--poll-ms"))
        opt.poll_ms = atol(v);
      else
        usage(argv[0]);
    }
  }
  if(!opt.base || opt.runs < 1 || opt.runs > 100 || opt.siblings < 1 ||
     opt.siblings > MAX_SIBLINGS || opt.start_ms < 0 ||
     opt.pause_ms <= opt.start_ms || opt.pause_ms > 60000 ||
     opt.after_ms < 100 || opt.after_ms > 60000 || opt.poll_ms < 1 ||
     opt.poll_ms > 10000)
    usage(argv[0]);
  if(opt.check_file)
    load_check_file(opt.check_file);

  /* a hard deadline for the whole program: a run takes at most 5 s to the
     first chunk, then pause_ms + after_ms */
  signal(SIGALRM, on_alarm);
  alarm((unsigned)(opt.runs * (6 + (opt.pause_ms + opt.after_ms) / 1000) +
                   10));

  curl_global_init(CURL_GLOBAL_ALL);
  printf("libcurl %s, %s, %s, %d run(s), %d sibling(s) of %s, "
         "paused %s for %ld ms\n",
         curl_version_info(CURLVERSION_NOW)->version,
         opt.http11 ? "HTTP/1.1" : "HTTP/2",
         opt.mode == MODE_HOLD ? "--hold" :
         opt.api_pause ? "--api-pause" : "--pause", opt.runs, opt.siblings,
         opt.small_path, opt.big_path, opt.pause_ms);
  fflush(stdout);
  for(i = 1; i <= opt.runs; i++)
    run_once(i, &t);
  printf("summary [%s %s%s%s]: %d runs: siblings stalled in %d (some never "
         "finished in %d); resumed transfer incomplete in %d; setup "
         "errors %d\n",
         opt.http11 ? "http/1.1" : "h2",
         opt.mode == MODE_HOLD ? "hold" : opt.api_pause ? "api-pause" :
         "pause", opt.buffer_size ? ", buffer size set" : "",
         opt.no_multiplex ? ", no multiplexing" : "", opt.runs,
         t.sibling_stall, t.sibling_never, t.big_incomplete, t.setup_error);
  curl_global_cleanup();
  free(check_data);
  return (t.sibling_stall || t.big_incomplete || t.setup_error) ? 1 : 0;
}
