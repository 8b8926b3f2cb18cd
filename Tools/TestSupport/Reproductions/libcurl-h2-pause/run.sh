#!/usr/bin/env bash
# Builds repro.c against the system libcurl, serves throwaway files from
# nghttpd (HTTP/2) and nginx (HTTP/1.1) on 127.0.0.1, and runs the scenarios
# that README.md describes. Everything it makes lives in a temporary folder
# that is removed at the end; the servers it started are stopped.
#
#   run.sh           each scenario RUNS times (default 5)
#   run.sh --load    the same, beside two busy loops (CPU load)
#
# Environment: RUNS, H2_PORT (18443), H1_PORT (18444); LIBCURL_CFLAGS and
# LIBCURL_LIBS to build against another libcurl (then set LD_LIBRARY_PATH).
set -u

here=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-5}
H2_PORT=${H2_PORT:-18443}
H1_PORT=${H1_PORT:-18444}
load=0
[ "${1:-}" = "--load" ] && load=1

missing=""
command -v nghttpd >/dev/null 2>&1 || missing="$missing nghttp2-server"
command -v nginx >/dev/null 2>&1 || missing="$missing nginx"
command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
pkg-config --exists libcurl 2>/dev/null || missing="$missing libcurl4-openssl-dev"
if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages:$missing" >&2
    exit 2
  fi
  apt-get update -qq && apt-get install -y -qq $missing >/dev/null || exit 2
fi

work=$(mktemp -d /tmp/libcurl-h2-pause.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cflags=${LIBCURL_CFLAGS:-$(pkg-config --cflags libcurl)}
libs=${LIBCURL_LIBS:-$(pkg-config --libs libcurl)}
# shellcheck disable=SC2086
cc -O2 -Wall -Wextra -o "$work/repro" "$here/repro.c" $cflags $libs || exit 2

mkdir -p "$work/www" "$work/nginx"
head -c 16777216 /dev/urandom > "$work/www/big.bin"
head -c 1048576 /dev/urandom > "$work/www/medium.bin"
head -c 200000 /dev/urandom > "$work/www/200k.bin"
head -c 100000 /dev/urandom > "$work/www/100k.bin"
head -c 16384 /dev/urandom > "$work/www/small.bin"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null || exit 2
# nginx's workers run as nobody: they must read the files
chmod 755 "$work" "$work/www"
chmod 644 "$work"/www/*

nghttpd -a 127.0.0.1 -d "$work/www" "$H2_PORT" "$work/key.pem" \
  "$work/cert.pem" >"$work/nghttpd.log" 2>&1 &
pids+=($!)

cat > "$work/nginx/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path $work/nginx;
  proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx;
  uwsgi_temp_path $work/nginx;
  scgi_temp_path $work/nginx;
  server {
    listen 127.0.0.1:$H1_PORT ssl;
    ssl_certificate $work/cert.pem;
    ssl_certificate_key $work/key.pem;
    root $work/www;
  }
}
EOF
nginx -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" \
  >"$work/nginx/out.log" 2>&1 &
pids+=($!)

for port in "$H2_PORT" "$H1_PORT"; do
  for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue 2
    sleep 0.1
  done
  echo "no server on 127.0.0.1:$port" >&2
  cat "$work/nghttpd.log" "$work/nginx/out.log" "$work/nginx/error.log" >&2
  exit 2
done

if [ "$load" = 1 ]; then
  for _ in 1 2; do
    timeout 900 sh -c 'while :; do :; done' &
    pids+=($!)
  done
  echo "(with two busy loops for CPU load)"
fi

repro() {
  "$work/repro" --runs "$RUNS" --cacert "$work/cert.pem" "$@"
  echo
}
h2=(--base "https://127.0.0.1:$H2_PORT")
h1=(--base "https://127.0.0.1:$H1_PORT" --http1.1)
big=(--big /big.bin --check "$work/www/big.bin")
medium=(--big /medium.bin --check "$work/www/medium.bin")

echo "== 1. as suspected: 16 MiB paused at its first chunk, 3 siblings of 16 KiB"
repro "${h2[@]}" "${big[@]}" --small /small.bin --siblings 3 --pause
repro "${h2[@]}" "${big[@]}" --small /small.bin --siblings 3 --api-pause

echo "== 2. 1 MiB paused at its first chunk, 3 siblings of 200000 B"
repro "${h2[@]}" "${medium[@]}" --small /200k.bin --siblings 3 --pause
repro "${h2[@]}" "${medium[@]}" --small /200k.bin --siblings 3 --hold

echo "== 3. 16 MiB paused or held at its first chunk, 4 siblings of 100000 B"
repro "${h2[@]}" "${big[@]}" --small /100k.bin --siblings 4 --pause
repro "${h2[@]}" "${big[@]}" --small /100k.bin --siblings 4 --hold

echo "== 4. scenario 2 with CURLOPT_BUFFERSIZE 1024: every DATA frame overflows"
repro "${h2[@]}" "${medium[@]}" --small /200k.bin --siblings 3 --pause \
  --buffer-size 1024
repro "${h2[@]}" "${medium[@]}" --small /200k.bin --siblings 3 --hold \
  --buffer-size 1024

echo "== 5. scenarios 2 to 4 without multiplexing: HTTP/2, a connection each"
repro "${h2[@]}" "${medium[@]}" --small /200k.bin --siblings 3 --pause \
  --no-multiplex
repro "${h2[@]}" "${big[@]}" --small /100k.bin --siblings 4 --hold \
  --no-multiplex
repro "${h2[@]}" "${medium[@]}" --small /200k.bin --siblings 3 --hold \
  --buffer-size 1024 --no-multiplex

echo "== 6. HTTP/1.1 (nginx), a real pause: one connection per transfer"
repro "${h1[@]}" "${big[@]}" --small /small.bin --siblings 3 --pause
repro "${h1[@]}" "${medium[@]}" --small /200k.bin --siblings 3 --pause
exit 0
