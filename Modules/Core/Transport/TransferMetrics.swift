import Foundation

/// What a transfer cost, gathered from libcurl before the completion is delivered (like
/// `URLSessionTaskMetrics`). One ``Transaction`` per request sent: a redirect or an
/// authentication retry adds one.
public struct TransferMetrics: Sendable {
    /// One request and its response.
    public struct Transaction: Sendable {
        public var url: URL
        /// Offsets from the start of this transaction. `nameLookup`, `connect` and
        /// `tlsHandshake` are zero on a reused connection.
        public var nameLookup: Duration
        public var connect: Duration
        public var tlsHandshake: Duration
        /// Until the first byte of the response arrived.
        public var firstByte: Duration
        public var total: Duration
        public var bytesReceived: Int64
        public var bytesSent: Int64
        public var headerBytesReceived: Int64
        /// The request went out on a connection kept from an earlier transfer.
        public var reusedConnection: Bool
        public var httpVersion: NegotiatedHTTPVersion?
        public var statusCode: Int?
        public var remoteAddress: String?
        public var remotePort: Int?

        public init(
            url: URL, nameLookup: Duration = .zero, connect: Duration = .zero, tlsHandshake: Duration = .zero,
            firstByte: Duration = .zero, total: Duration = .zero, bytesReceived: Int64 = 0, bytesSent: Int64 = 0,
            headerBytesReceived: Int64 = 0, reusedConnection: Bool = false, httpVersion: NegotiatedHTTPVersion? = nil,
            statusCode: Int? = nil, remoteAddress: String? = nil, remotePort: Int? = nil
        ) {
            self.url = url
            self.nameLookup = nameLookup
            self.connect = connect
            self.tlsHandshake = tlsHandshake
            self.firstByte = firstByte
            self.total = total
            self.bytesReceived = bytesReceived
            self.bytesSent = bytesSent
            self.headerBytesReceived = headerBytesReceived
            self.reusedConnection = reusedConnection
            self.httpVersion = httpVersion
            self.statusCode = statusCode
            self.remoteAddress = remoteAddress
            self.remotePort = remotePort
        }
    }

    public var transactions: [Transaction]
    /// From the moment the transport took the request to its completion.
    public var totalDuration: Duration
    public var redirectCount: Int

    public init(transactions: [Transaction], totalDuration: Duration, redirectCount: Int) {
        self.transactions = transactions
        self.totalDuration = totalDuration
        self.redirectCount = redirectCount
    }

    /// Body bytes received over every transaction.
    public var bytesReceived: Int64 { transactions.reduce(0) { $0 + $1.bytesReceived } }
}
