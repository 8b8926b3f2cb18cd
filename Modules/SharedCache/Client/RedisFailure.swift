/// Why a command got no reply. Each is a miss to the cache, never a failed load.
enum RedisFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The node failed recently and is skipped until its backoff ends.
    case nodeDown
    /// No reply (or no connection) within the timeout: the node is slow, paused or gone.
    case timeout
    /// The connection could not be made, or broke (its message from hiredis).
    case connection(String)
    /// `AUTH` or `SELECT` was refused when the connection opened.
    case refused(String)
    /// The cache was shut down.
    case shutdown

    var description: String {
        switch self {
        case .nodeDown: "node skipped during its backoff"
        case .timeout: "timed out"
        case .connection(let message): "connection failed: \(message)"
        case .refused(let message): "refused: \(message)"
        case .shutdown: "shut down"
        }
    }
}
