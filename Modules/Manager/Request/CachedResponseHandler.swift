import WebImageCore

/// Decides what the caches keep of a response (Alamofire's `CachedResponseHandler`):
/// the response as HTTP's caching rules would store it, a changed copy (a longer
/// lifetime in its `Cache-Control`, fewer headers), or `nil` to store nothing.
///
/// It is asked only about responses the rules let a load store: a downloaded body, and a
/// stored body whose metadata a 304 refreshed. Its answer is what the disk cache and the
/// shared tier store; the memory cache keeps the decoded image for the lifetime the
/// answer's metadata gives (when it follows freshness). `nil` leaves both stores as they
/// were and the image still answers its loads. It runs in the load, after the decode, so
/// keep it quick.
///
/// ```swift
/// var configuration = ImageManager.Configuration()
/// configuration.cachedResponseHandler = { proposed, response in
///     // Avatars change rarely: keep them a day, whatever the server said.
///     guard response.url.path.hasPrefix("/avatars/") else { return proposed }
///     var kept = proposed
///     kept.metadata.headers.set("Cache-Control", "max-age=86400")
///     return kept
/// }
/// ```
public typealias CachedResponseHandler = @Sendable (_ proposed: CachedResponse, _ response: TransportResponse) -> CachedResponse?
