// The socket calls of the reachability watcher that need the kernel's structures and
// macros (sockaddr_nl, NLMSG_*, RTA_*), which Swift cannot use. Parsing the replies
// is Swift's (Modules/Reachability/Netlink), over plain bytes.
#include "wir_netlink.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_link.h>

int wir_netlink_open(uint32_t groups) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
    if (fd < 0) return -errno;
    struct sockaddr_nl local;
    memset(&local, 0, sizeof local);
    local.nl_family = AF_NETLINK;
    local.nl_groups = groups;
    if (bind(fd, (struct sockaddr *)&local, sizeof local) < 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

uint32_t wir_watch_groups(void) {
    return RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE;
}

static int wir_send(int fd, const void *message, size_t length) {
    struct sockaddr_nl kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.nl_family = AF_NETLINK;
    for (;;) {
        ssize_t sent = sendto(fd, message, length, 0, (struct sockaddr *)&kernel, sizeof kernel);
        if (sent >= 0) return 0;
        if (errno != EINTR) return -errno;
    }
}

int wir_request_dump(int fd, uint16_t type, uint8_t family, uint32_t sequence) {
    struct {
        struct nlmsghdr header;
        union {
            struct ifinfomsg link;
            struct rtmsg route;
        } body;
    } request;
    memset(&request, 0, sizeof request);
    size_t body = type == RTM_GETLINK ? sizeof(struct ifinfomsg) : sizeof(struct rtmsg);
    request.header.nlmsg_len = NLMSG_LENGTH(body);
    request.header.nlmsg_type = type;
    request.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    request.header.nlmsg_seq = sequence;
    if (type == RTM_GETLINK) {
        request.body.link.ifi_family = family;
    } else {
        request.body.route.rtm_family = family;
    }
    return wir_send(fd, &request, request.header.nlmsg_len);
}

int wir_request_route_to(int fd, uint8_t family, const uint8_t *address, size_t length, uint32_t sequence) {
    if (length != 4 && length != 16) return -EINVAL;
    struct {
        struct nlmsghdr header;
        struct rtmsg route;
        char attributes[RTA_SPACE(16)];
    } request;
    memset(&request, 0, sizeof request);
    request.header.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
    request.header.nlmsg_type = RTM_GETROUTE;
    request.header.nlmsg_flags = NLM_F_REQUEST;
    request.header.nlmsg_seq = sequence;
    request.route.rtm_family = family;
    request.route.rtm_dst_len = (unsigned char)(length * 8);
    struct rtattr *destination = (struct rtattr *)((char *)&request + NLMSG_ALIGN(request.header.nlmsg_len));
    destination->rta_type = RTA_DST;
    destination->rta_len = RTA_LENGTH(length);
    memcpy(RTA_DATA(destination), address, length);
    request.header.nlmsg_len = NLMSG_ALIGN(request.header.nlmsg_len) + RTA_SPACE(length);
    return wir_send(fd, &request, request.header.nlmsg_len);
}

int wir_wake_open(void) {
    int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return fd < 0 ? -errno : fd;
}

void wir_wake_signal(int fd) {
    uint64_t one = 1;
    // A full counter is still readable: a failed write loses nothing.
    ssize_t written = write(fd, &one, sizeof one);
    (void)written;
}
