import CLibCurl
import CWebImageTransport
import Foundation
import WebImageCore

/// Reads one hop's timings and sizes from its easy handle, once the hop is done.
enum TransactionMetricsReader {
    static func read(_ easy: UnsafeMutableRawPointer, url: URL, statusCode: Int?, httpVersion: NegotiatedHTTPVersion?)
        -> TransferMetrics.Transaction
    {
        func time(_ info: CURLINFO) -> Duration {
            var microseconds: curl_off_t = 0
            wi_easy_getinfo_off(easy, info, &microseconds)
            return .microseconds(microseconds)
        }
        func offset(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            wi_easy_getinfo_off(easy, info, &value)
            return Int64(value)
        }
        func long(_ info: CURLINFO) -> Int {
            var value = 0
            wi_easy_getinfo_long(easy, info, &value)
            return value
        }
        var address: UnsafePointer<CChar>?
        wi_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &address)
        let remote = address.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let port = long(CURLINFO_PRIMARY_PORT)
        return TransferMetrics.Transaction(
            url: url,
            nameLookup: time(CURLINFO_NAMELOOKUP_TIME_T),
            connect: time(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: time(CURLINFO_APPCONNECT_TIME_T),
            firstByte: time(CURLINFO_STARTTRANSFER_TIME_T),
            total: time(CURLINFO_TOTAL_TIME_T),
            bytesReceived: offset(CURLINFO_SIZE_DOWNLOAD_T),
            bytesSent: offset(CURLINFO_SIZE_UPLOAD_T) + Int64(long(CURLINFO_REQUEST_SIZE)),
            headerBytesReceived: Int64(long(CURLINFO_HEADER_SIZE)),
            reusedConnection: long(CURLINFO_NUM_CONNECTS) == 0 && remote != nil,
            httpVersion: httpVersion,
            statusCode: statusCode,
            remoteAddress: remote,
            remotePort: port > 0 ? port : nil
        )
    }
}
