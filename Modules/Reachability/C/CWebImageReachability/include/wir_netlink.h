#ifndef WIR_NETLINK_H
#define WIR_NETLINK_H

#include <stddef.h>
#include <stdint.h>

/// Opens a NETLINK_ROUTE socket (close-on-exec, non-blocking) bound to `groups`, a mask
/// of WIR_GROUP_* (0: no notifications, for requests only). Returns the descriptor, or
/// -errno.
int wir_netlink_open(uint32_t groups);

/// The groups a status watcher subscribes to: links, IPv4 and IPv6 addresses and routes.
uint32_t wir_watch_groups(void);

/// Sends a dump request of `type` (RTM_GETLINK or RTM_GETROUTE) for `family`
/// (AF_UNSPEC for all). Returns 0, or -errno.
int wir_request_dump(int fd, uint16_t type, uint8_t family, uint32_t sequence);

/// Sends RTM_GETROUTE for the route the kernel would use to reach `address` (4 bytes for
/// AF_INET, 16 for AF_INET6). Returns 0, or -errno.
int wir_request_route_to(int fd, uint8_t family, const uint8_t *address, size_t length, uint32_t sequence);

/// An eventfd (close-on-exec, non-blocking) that wakes the watcher's poll to stop it.
/// Returns the descriptor, or -errno.
int wir_wake_open(void);

/// Makes `fd` (from wir_wake_open) readable.
void wir_wake_signal(int fd);

#endif
