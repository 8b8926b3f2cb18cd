import Foundation

/// Why reachability could not be watched or asked.
public enum ReachabilityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The NETLINK_ROUTE socket could not be opened (not Linux, or a sandbox without
    /// netlink); `errno` says why.
    case netlinkUnavailable(errno: Int32)
    /// Sending a request to the kernel or reading its reply failed.
    case netlinkFailed(operation: String, errno: Int32)
    /// The kernel's reply could not be read: a length that runs past the bytes, a
    /// truncated header. Not expected from a real kernel; reported rather than trusted.
    case malformedMessage(String)
    /// The kernel did not answer a request within a second.
    case timedOut(operation: String)
    /// The host name is empty or holds a NUL byte.
    case invalidHost(String)
    /// The monitor was stopped.
    case stopped

    public var description: String {
        switch self {
        case .netlinkUnavailable(let code): "cannot open a NETLINK_ROUTE socket: \(String(cString: strerror(code)))"
        case .netlinkFailed(let operation, let code): "\(operation) failed: \(String(cString: strerror(code)))"
        case .malformedMessage(let detail): "malformed netlink message: \(detail)"
        case .timedOut(let operation): "\(operation): no answer from the kernel within 1 s"
        case .invalidHost(let host): "not a host name: \(host.debugDescription)"
        case .stopped: "the reachability monitor was stopped"
        }
    }
}
