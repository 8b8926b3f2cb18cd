// The URL policy's address rules, applied where libcurl knows the address: when it opens
// a socket (after DNS, before connect: no packet reaches a refused address) and before a
// request goes out on a connection, which may be a kept-alive one opened for another
// request under another policy.
#include "wi_transport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

static wi_address_check_fn checker = NULL;

void wi_address_set_checker(wi_address_check_fn check) { checker = check; }

static int allowed(void *context, int family, const void *address) {
    if (checker == NULL) return 0;
    if (family == AF_INET) return checker(context, (const unsigned char *)address, 4);
    if (family == AF_INET6) return checker(context, (const unsigned char *)address, 16);
    return 0;  // Neither IPv4 nor IPv6 (a Unix socket): not what a policy can judge.
}

static curl_socket_t open_checked(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    if (purpose == CURLSOCKTYPE_IPCXN) {
        const void *bytes = NULL;
        if (address->family == AF_INET) bytes = &((const struct sockaddr_in *)&address->addr)->sin_addr;
        if (address->family == AF_INET6) bytes = &((const struct sockaddr_in6 *)&address->addr)->sin6_addr;
        if (bytes == NULL || !allowed(context, address->family, bytes)) return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

static int before_request(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)local_ip;
    (void)primary_port;
    (void)local_port;
    unsigned char bytes[16];
    if (primary_ip != NULL && inet_pton(AF_INET, primary_ip, bytes) == 1) {
        return allowed(context, AF_INET, bytes) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT;
    }
    if (primary_ip != NULL && inet_pton(AF_INET6, primary_ip, bytes) == 1) {
        return allowed(context, AF_INET6, bytes) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT;
    }
    return CURL_PREREQFUNC_ABORT;
}

CURLcode wi_easy_install_address_check(CURL *handle, void *context) {
    CURLcode result = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open_checked);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, context);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, before_request);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_PREREQDATA, context);
    return result;
}
