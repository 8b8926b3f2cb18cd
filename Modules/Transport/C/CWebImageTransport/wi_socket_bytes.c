// Bytes received per connection, for the stall timer: libcurl's counters see body bytes
// only, so a server sending endless chunk extensions (or any framing) would look stalled.
// The sockets libcurl opens are kept in a small table (its open and close callbacks), and
// a transfer's socket is found by the local and remote ports libcurl reports for it.
#include "wi_transport.h"

#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/tcp.h>
#elif defined(__APPLE__)
#include <netinet/tcp.h>
#endif

#define WI_SOCKET_LIMIT 4096

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static curl_socket_t table[WI_SOCKET_LIMIT];
static int table_count = 0;

static int track_socket(void *context, curl_socket_t fd, curlsocktype purpose) {
    (void)context;
    if (purpose != CURLSOCKTYPE_IPCXN) return CURL_SOCKOPT_OK;
    pthread_mutex_lock(&table_lock);
    if (table_count < WI_SOCKET_LIMIT) table[table_count++] = fd;
    pthread_mutex_unlock(&table_lock);
    return CURL_SOCKOPT_OK;
}

static int close_socket(void *context, curl_socket_t fd) {
    (void)context;
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < table_count; i++) {
        if (table[i] == fd) {
            table[i] = table[--table_count];
            break;
        }
    }
    pthread_mutex_unlock(&table_lock);
    return close(fd);
}

CURLcode wi_easy_track_sockets(CURL *handle) {
    CURLcode result = curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, track_socket);
    if (result != CURLE_OK) return result;
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, close_socket);
}

static long port_of(curl_socket_t fd, int peer) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    int failed = peer ? getpeername(fd, (struct sockaddr *)&address, &length) : getsockname(fd, (struct sockaddr *)&address, &length);
    if (failed != 0) return -1;
    if (address.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&address)->sin_port);
    if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    return -1;
}

static int64_t received(curl_socket_t fd) {
#if defined(__linux__)
    struct tcp_info info;
    socklen_t length = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    if (length < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received) return -1;
    return (int64_t)info.tcpi_bytes_received;
#elif defined(__APPLE__)
    struct tcp_connection_info info;
    socklen_t length = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_CONNECTION_INFO, &info, &length) != 0) return -1;
    return (int64_t)info.tcpi_rxbytes;
#else
    (void)fd;
    return -1;
#endif
}

int64_t wi_easy_connection_bytes_received(CURL *handle) {
    long port = 0, peer = 0;
    if (curl_easy_getinfo(handle, CURLINFO_LOCAL_PORT, &port) != CURLE_OK || port <= 0) return -1;
    if (curl_easy_getinfo(handle, CURLINFO_PRIMARY_PORT, &peer) != CURLE_OK || peer <= 0) return -1;
    int64_t bytes = -1;
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < table_count; i++) {
        if (port_of(table[i], 0) == port && port_of(table[i], 1) == peer) {
            bytes = received(table[i]);
            break;
        }
    }
    pthread_mutex_unlock(&table_lock);
    return bytes;
}
