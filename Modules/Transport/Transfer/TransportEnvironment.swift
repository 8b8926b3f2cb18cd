import CLibCurl
import WebImageConcurrency
import WebImageCore

/// What every transfer of one transport shares, fixed when the transport is made.
///
/// A class, so that each transfer holds one reference rather than a copy of the whole
/// configuration (a dozen retains and releases per request).
final class TransportEnvironment: Sendable {
    let configuration: TransportConfiguration
    let systemBundle: String?
    /// The configuration's monitors, then those added while running.
    let monitors = MonitorList<any TransportEventMonitor>()
    /// `Accept` and `User-Agent` from the configuration, made once: a request that sets
    /// no header of its own sends this list as it is. libcurl only reads it.
    nonisolated(unsafe) let defaultHeaderList: UnsafeMutablePointer<curl_slist>?
    /// `resolvedHosts` as libcurl's `CURLOPT_RESOLVE` list, made once; `nil` when empty.
    nonisolated(unsafe) let resolveList: UnsafeMutablePointer<curl_slist>?

    init(_ configuration: TransportConfiguration) {
        self.configuration = configuration
        systemBundle = configuration.certificateAuthorityBundle ?? CurlLibrary.systemCertificateBundle
        for monitor in configuration.eventMonitors { monitors.add(monitor, delivery: monitor.delivery) }
        var list: UnsafeMutablePointer<curl_slist>?
        list = curl_slist_append(list, HTTPHeaderLine.line("Accept", configuration.accept))
        list = curl_slist_append(list, HTTPHeaderLine.line("User-Agent", configuration.userAgent))
        defaultHeaderList = list
        var resolve: UnsafeMutablePointer<curl_slist>?
        for entry in configuration.resolvedHosts { resolve = curl_slist_append(resolve, entry) }
        resolveList = resolve
    }

    deinit {
        // Every easy handle that pointed at it has been reset or cleaned up by now: the
        // loop and every transfer hold this environment.
        curl_slist_free_all(defaultHeaderList)
        if let resolveList { curl_slist_free_all(resolveList) }
    }
}

/// A header as libcurl's header list takes it.
enum HTTPHeaderLine {
    /// "Name: value"; "Name;" is libcurl's way to send a header with an empty value.
    static func line(_ name: String, _ value: String) -> String {
        value.isEmpty ? "\(name);" : "\(name): \(value)"
    }
}
