import Synchronization
import WebImageConcurrency
import WebImageCore

extension ImageDownloader {
    /// The headers every download sends unless its request sets its own: the
    /// configuration's ``Configuration/defaultHeaders``, as changed since with
    /// ``setDefaultHeader(_:value:)``.
    public var defaultHeaders: HTTPHeaderFields { liveDefaultHeaders.withLock { $0 } }

    /// Sets a default header on the running downloader, or removes it with a `nil` value
    /// (SDWebImage's `setValue:forHTTPHeaderField:`): a token that changes, a header a
    /// server begins to ask for.
    ///
    /// Downloads started after this call send it; those already started keep the headers
    /// they were keyed and sent with, and so do their retries. A request's own header of
    /// the same name still wins. Safe from any thread.
    public func setDefaultHeader(_ name: String, value: String?) {
        liveDefaultHeaders.withLock { headers in
            if let value { headers.set(name, value) } else { headers.remove(name) }
        }
    }
}
