import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// /basic-auth/<user>/<password>, /digest-auth/<user>/<password> and
/// /any-auth/<user>/<password> (both offered).
enum Auth {
    static let basicRealm = "wi-basic"
    static let digestRealm = "wi-digest"

    /// "user/password" (each percent-decoded; the password is everything after the
    /// first slash).
    static func credentials(_ rest: Substring) -> (user: String, password: String)? {
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let user = String(rest[..<slash])
        let password = String(rest[rest.index(after: slash)...])
        return (user.removingPercentEncoding ?? user, password.removingPercentEncoding ?? password)
    }

    static func basic(_ rest: Substring, head: HTTPRequestHead) -> ResponsePlan {
        guard let (user, password) = credentials(rest) else { return Routes.notFound() }
        if let authorization = head.headers.first(name: "authorization"),
            authorization.count > 6, authorization.prefix(6).lowercased() == "basic ",
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            decoded == Data("\(user):\(password)".utf8)
        {
            return .text(.ok, "authenticated \(user)")
        }
        var headers = HTTPHeaders()
        headers.add(name: "www-authenticate", value: "Basic realm=\"\(basicRealm)\"")
        return .text(.unauthorized, "unauthorized", headers: headers)
    }

    /// Digest and Basic offered in one 401 (two `WWW-Authenticate` fields, Digest first);
    /// a right answer in either scheme is let in.
    static func either(_ rest: Substring, head: HTTPRequestHead, core: ServerCore) -> ResponsePlan {
        let digestPlan = digest(rest, head: head, core: core)
        let basicPlan = basic(rest, head: head)
        if digestPlan.status == .ok { return digestPlan }
        if basicPlan.status == .ok { return basicPlan }
        var headers = HTTPHeaders()
        for plan in [digestPlan, basicPlan] {
            for value in plan.headers["www-authenticate"] { headers.add(name: "www-authenticate", value: value) }
        }
        return .text(.unauthorized, "unauthorized", headers: headers)
    }

    /// RFC 7616 Digest, MD5, qop=auth.
    static func digest(_ rest: Substring, head: HTTPRequestHead, core: ServerCore) -> ResponsePlan {
        guard let (user, password) = credentials(rest) else { return Routes.notFound() }
        if let authorization = head.headers.first(name: "authorization"),
            authorization.count > 7, authorization.prefix(7).lowercased() == "digest ",
            let parameters = parseParameters(authorization.dropFirst(7)),
            verifyDigest(parameters, method: head.method.rawValue, requestURI: head.uri, user: user, password: password, core: core)
        {
            return .text(.ok, "authenticated \(user)")
        }
        let nonce = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        core.digestNonces.withLockedValue { _ = $0.insert(nonce) }
        var headers = HTTPHeaders()
        headers.add(
            name: "www-authenticate",
            value: "Digest realm=\"\(digestRealm)\", qop=\"auth\", nonce=\"\(nonce)\", algorithm=MD5"
        )
        return .text(.unauthorized, "unauthorized", headers: headers)
    }

    static func verifyDigest(
        _ p: [String: String],
        method: String,
        requestURI: String,
        user: String,
        password: String,
        core: ServerCore
    ) -> Bool {
        guard p["username"] == user, p["realm"] == digestRealm,
            let nonce = p["nonce"], core.digestNonces.withLockedValue({ $0.contains(nonce) }),
            p["qop"]?.lowercased() == "auth",
            let nc = p["nc"], let cnonce = p["cnonce"], let uri = p["uri"], let response = p["response"]
        else { return false }
        if let algorithm = p["algorithm"], algorithm.uppercased() != "MD5" { return false }
        // The digest's uri must name the request's target.
        guard uri == requestURI else { return false }
        let ha1 = md5Hex("\(user):\(digestRealm):\(password)")
        let ha2 = md5Hex("\(method):\(uri)")
        let expected = md5Hex("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)")
        return response.lowercased() == expected
    }

    static func md5Hex(_ string: String) -> String {
        Insecure.MD5.hash(data: Data(string.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// `name=value, name="quoted, value"` (backslash escapes in quoted values).
    static func parseParameters(_ text: Substring) -> [String: String]? {
        var result: [String: String] = [:]
        var index = text.startIndex
        func skip(_ characters: Set<Character>) {
            while index < text.endIndex, characters.contains(text[index]) { index = text.index(after: index) }
        }
        while true {
            skip([" ", "\t", ","])
            if index == text.endIndex { break }
            let nameStart = index
            while index < text.endIndex, text[index] != "=", text[index] != "," { index = text.index(after: index) }
            let name = text[nameStart..<index].trimmingCharacters(in: .whitespaces).lowercased()
            guard index < text.endIndex, text[index] == "=" else { return nil }
            index = text.index(after: index)
            skip([" ", "\t"])
            var value = ""
            if index < text.endIndex, text[index] == "\"" {
                index = text.index(after: index)
                var closed = false
                while index < text.endIndex {
                    let character = text[index]
                    index = text.index(after: index)
                    if character == "\\", index < text.endIndex {
                        value.append(text[index])
                        index = text.index(after: index)
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        value.append(character)
                    }
                }
                guard closed else { return nil }
            } else {
                let valueStart = index
                while index < text.endIndex, text[index] != "," { index = text.index(after: index) }
                value = text[valueStart..<index].trimmingCharacters(in: .whitespaces)
            }
            result[name] = value
        }
        return result
    }
}
