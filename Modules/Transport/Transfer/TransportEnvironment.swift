import WebImageCore

/// What every transfer of one transport shares, fixed when the transport is made.
struct TransportEnvironment: Sendable {
    var configuration: TransportConfiguration
    var systemBundle: String?
    var monitors: [any TransportEventMonitor] { configuration.eventMonitors }
    var hasMonitors: Bool

    init(_ configuration: TransportConfiguration) {
        self.configuration = configuration
        systemBundle = configuration.certificateAuthorityBundle ?? CurlLibrary.systemCertificateBundle
        hasMonitors = !configuration.eventMonitors.isEmpty
    }
}
