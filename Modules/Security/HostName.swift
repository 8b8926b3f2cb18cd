/// Host names as this module compares them.
enum HostName {
    /// Lowercased, without the brackets of an IPv6 literal or a final dot:
    /// `Example.COM.` and `example.com` are the same host, `[::1]` and `::1` too.
    static func normalized(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]"), name.count >= 2 {
            name = String(name.dropFirst().dropLast())
        }
        if name.hasSuffix("."), name.count > 1 { name.removeLast() }
        return name
    }

    /// Whether a normalized host is an IP address (wildcards never match one).
    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0 == "." || ("0"..."9").contains($0) })
    }

    /// `values` with normalized keys.
    ///
    /// - Precondition: no two keys name the same host once normalized (which one should
    ///   win cannot be told from a dictionary).
    static func normalizingKeys<Value>(_ values: [String: Value], of owner: String) -> [String: Value] {
        var result: [String: Value] = [:]
        for (host, value) in values {
            let key = normalized(host)
            precondition(result[key] == nil, "\(owner): two keys name the host \"\(key)\"")
            result[key] = value
        }
        return result
    }
}
