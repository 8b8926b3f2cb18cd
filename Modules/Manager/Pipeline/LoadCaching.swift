import Foundation
import WebImageCore
import WebImageHTTP

/// The caching rules one load follows: its ``CachePolicy``, HTTP's rules, and whether the
/// memory cache follows freshness. Pure decisions; the stages act on them.
struct LoadCaching: Sendable {
    let policy: CachePolicy
    let rules: HTTPCacheRules
    let memoryFollowsFreshness: Bool
    /// What the stores keep of a response they may store; `nil`: the response as is.
    var keeps: CachedResponseHandler? = nil

    /// What a load does with the entry the disk cache holds for it.
    enum Use: Equatable {
        /// Answer with it, without asking the server (`stale`: used past its freshness).
        case answer(stale: Bool)
        /// Answer with it, stale, and revalidate it behind the load.
        case answerAndRevalidateBehind
        /// Ask the server first (conditionally, when it has validators).
        case revalidate
        /// Act as if nothing were stored: another variant, or a policy that never reads.
        case ignore
    }

    /// Whether the load reads the disk cache at all.
    func readsDisk(_ options: ImageLoadOptions) -> Bool {
        guard !options.contains(.fromLoaderOnly) else { return false }
        return policy != .never || options.contains(.fromCacheOnly) || options.contains(.refreshCached)
    }

    /// The options first (``ImageLoadOptions/fromCacheOnly`` uses any matching entry,
    /// ``ImageLoadOptions/refreshCached`` always asks), then the policy. Another variant
    /// (`Vary`) is never used.
    func use(of stored: CachedResponseMetadata, for request: ImageRequest, at now: Date) -> Use {
        let decision = rules.decision(for: stored, requestHeaders: request.context.headers, at: now)
        if decision == .otherVariant { return .ignore }
        if request.options.contains(.fromCacheOnly) { return .answer(stale: false) }
        if request.options.contains(.refreshCached) { return .revalidate }
        switch policy {
        case .always: return .answer(stale: false)
        case .never: return .ignore
        case .protocol:
            switch decision {
            case .fresh: return .answer(stale: false)
            case .staleWhileRevalidate: return .answerAndRevalidateBehind
            case .revalidate: return .revalidate
            case .otherVariant: return .ignore
            }
        }
    }

    /// Whether `error` lets a stale entry stand in (`stale-if-error`): a 500, 502, 503
    /// or 504, or no response at all (the server unreachable, a reset, a timeout).
    func usableAfterFailure(_ error: DownloadError, stored: CachedResponseMetadata, at now: Date) -> Bool {
        guard policy == .protocol, case .transport(let failure) = error else { return false }
        // Written as a plain switch on the status: the `map(...) ?? (response == nil)`
        // form crashed the Swift 6.3.1 optimizer (CopyPropagation, "outside of lifetime
        // use") in release builds.
        let counts: Bool
        if let status = failure.response?.statusCode {
            counts = HTTPCacheRules.staleIfErrorStatuses.contains(status)
        } else {
            counts = true
        }
        return counts && rules.mayUseAfterError(stored, at: now)
    }

    /// Whether the response to `request` may go to disk.
    func mayStore(_ response: TransportResponse, for request: ImageRequest) -> Bool {
        rules.mayStore(responseHeaders: response.headers, requestHeaders: Self.requestHeaders(of: request))
    }

    /// The metadata to store with the response.
    func metadata(for response: TransportResponse, of request: ImageRequest, requestedAt: Date, receivedAt: Date) -> CachedResponseMetadata
    {
        rules.metadata(
            responseHeaders: response.headers, requestHeaders: request.context.headers, requestedAt: requestedAt,
            receivedAt: receivedAt)
    }

    /// The stored metadata brought up to date by a 304 answering `request`.
    func refreshed(
        _ stored: CachedResponseMetadata, by response: TransportResponse, of request: ImageRequest, requestedAt: Date, receivedAt: Date
    ) -> CachedResponseMetadata {
        rules.refreshed(
            stored, byNotModified: response.headers, requestHeaders: request.context.headers, requestedAt: requestedAt,
            receivedAt: receivedAt)
    }

    /// How long an image decoded from a response with `metadata` may stay in memory:
    /// `nil` for no limit (the memory cache does not follow freshness); zero or less
    /// for not at all.
    func memoryLifetime(_ metadata: CachedResponseMetadata, at now: Date) -> Duration? {
        guard memoryFollowsFreshness, policy == .protocol else { return nil }
        return .seconds(ResponseFreshness(metadata, rules: rules).remainingLifetime(at: now))
    }

    /// The load's headers, with `Authorization` present when it carries a credential:
    /// the shared-cache rule for authorised requests sees both.
    private static func requestHeaders(of request: ImageRequest) -> HTTPHeaderFields {
        var headers = request.context.headers
        if request.context.credential != nil, !headers.contains("Authorization") { headers.add("Authorization", "") }
        return headers
    }
}
