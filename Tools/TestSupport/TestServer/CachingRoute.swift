import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1

import enum WebImageHTTP.HTTPDate

/// GET /cache/<file>: a document root file (with its validators and 304s, as /files/
/// serves it) whose caching headers the query sets, for the HTTP caching tests:
///
/// - `cc=<value>`: the Cache-Control (empty: none);
/// - `age=<s>`: an Age field;
/// - `date_ago=<s>`: a Date that many seconds in the past;
/// - `expires_in=<s>`: an Expires that many seconds after the Date (negative: before);
///   `expires=<text>` sends the text as it is (an invalid date, say);
/// - `modified_ago=<s>`: a Last-Modified that many seconds before the Date (and no ETag,
///   so it is the only validator);
/// - `vary=<names>`: a Vary field; `lang_<code>=<file>` serves that file instead when
///   the request's Accept-Language is `<code>`;
/// - `name=<n>&fail_after=<k>`: from the (k+1)th request for `n` on, 503
///   (`fail_status` for another status);
/// - `revalidation_gate=<g>`: a conditional request (`If-None-Match` or
///   `If-Modified-Since`) is answered only once the test opens gate `g`.
enum CachingRoute {
    static func plan(_ file: Substring, query: Query, head: HTTPRequestHead, core: ServerCore) -> ResponsePlan {
        if let name = query["name"], let failAfter = query.int("fail_after") {
            let seen = core.flakyCounts.withLockedValue { counts -> Int in
                counts["cache:" + name, default: 0] += 1
                return counts["cache:" + name]!
            }
            if seen > failAfter {
                return .text(HTTPResponseStatus(statusCode: query.int("fail_status") ?? 503), "failing \(seen)")
            }
        }
        var served = String(file)
        if let language = head.headers.first(name: "accept-language"), let variant = query["lang_" + language] {
            served = variant
        }
        var plan = Files.plan(relativePath: served[...], query: Query(""), head: head, documentRoot: core.documentRoot)
        let now = Int(Date().timeIntervalSince1970)
        let date = now - (query.int("date_ago") ?? 0)
        if let control = query["cc"] {
            plan.headers.remove(name: "cache-control")
            if !control.isEmpty { plan.headers.add(name: "cache-control", value: control) }
        }
        if let age = query.raw("age") { plan.headers.add(name: "age", value: age) }
        if query.int("date_ago") != nil { plan.headers.add(name: "date", value: HTTPDate.format(secondsSince1970: date)) }
        if let expiresIn = query.int("expires_in") {
            plan.headers.add(name: "expires", value: HTTPDate.format(secondsSince1970: date + expiresIn))
        } else if let expires = query["expires"] {
            plan.headers.add(name: "expires", value: expires)
        }
        if let modifiedAgo = query.int("modified_ago") {
            plan.headers.remove(name: "etag")
            plan.headers.replaceOrAdd(name: "last-modified", value: HTTPDate.format(secondsSince1970: date - modifiedAgo))
        }
        if let vary = query["vary"] { plan.headers.add(name: "vary", value: vary) }
        if let gate = query["revalidation_gate"],
            head.headers.contains(name: "if-none-match") || head.headers.contains(name: "if-modified-since")
        {
            plan.gate = gate
        }
        return plan
    }
}
