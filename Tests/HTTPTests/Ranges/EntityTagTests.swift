import Testing
import WebImageCore
import WebImageHTTP

@Suite("EntityTag and ResumeValidator: only strong validators resume")
struct EntityTagTests {
    @Test("reads strong and weak tags; strong comparison needs two strong tags with the same characters")
    func strongAndWeak() throws {
        let strong = try #require(EntityTag(parsing: " \"abc\" "))
        let weak = try #require(EntityTag(parsing: "W/\"abc\""))
        #expect(!strong.isWeak && strong.opaqueTag == "abc" && strong.description == "\"abc\"")
        #expect(weak.isWeak && weak.description == "W/\"abc\"")
        #expect(strong.matchesStrongly(try #require(EntityTag(parsing: "\"abc\""))))
        #expect(!strong.matchesStrongly(weak) && !weak.matchesStrongly(weak))
        #expect(!strong.matchesStrongly(try #require(EntityTag(parsing: "\"abd\""))))
        #expect(EntityTag(parsing: "\"\"")?.opaqueTag == "")
    }

    @Test(
        "refuses what the grammar does not allow",
        arguments: ["abc", "\"abc", "w/\"abc\"", "\"a b\"", "\"a\"b\"", "W/abc", "\"", "", "\"a\u{7F}\""])
    func refuses(_ value: String) {
        #expect(EntityTag(parsing: value) == nil, "\(value)")
    }

    @Test("a strong ETag is the validator; a weak one never is, nor one of several")
    func validatorFromETag() throws {
        let validator = try #require(ResumeValidator(responseHeaders: ["ETag": "\"v1\""]))
        #expect(validator.ifRangeValue == "\"v1\"" && validator.entityTag?.opaqueTag == "v1" && validator.lastModified == nil)
        #expect(ResumeValidator(responseHeaders: ["ETag": "W/\"v1\""]) == nil)
        #expect(ResumeValidator(responseHeaders: HTTPHeaderFields([("ETag", "\"a\""), ("ETag", "\"b\"")])) == nil)
        #expect(ResumeValidator(responseHeaders: ["ETag": "v1"]) == nil)
        #expect(ResumeValidator(responseHeaders: [:]) == nil)
    }

    @Test("Last-Modified counts only without an ETag and with a Date at least 60 s later (RFC 9110 §8.8.2.2)")
    func validatorFromLastModified() throws {
        let modified = "Sun, 06 Nov 1994 08:49:37 GMT"
        let validator = try #require(
            ResumeValidator(responseHeaders: ["Last-Modified": modified, "Date": "Sun, 06 Nov 1994 08:50:37 GMT"]))
        #expect(validator.ifRangeValue == modified && validator.entityTag == nil)
        #expect(validator.lastModified?.date == "Sun, 06 Nov 1994 08:50:37 GMT")
        #expect(ResumeValidator(responseHeaders: ["Last-Modified": modified, "Date": "Sun, 06 Nov 1994 08:50:36 GMT"]) == nil)
        #expect(ResumeValidator(responseHeaders: ["Last-Modified": modified]) == nil)
        #expect(ResumeValidator(responseHeaders: ["Last-Modified": "yesterday", "Date": "Sun, 06 Nov 1994 09:50:37 GMT"]) == nil)
        #expect(
            ResumeValidator(responseHeaders: ["ETag": "W/\"x\"", "Last-Modified": modified, "Date": "Mon, 07 Nov 1994 08:49:37 GMT"])
                == nil,
            "a weak ETag present: the response has an entity tag, and If-Range must not carry a weak one")
    }

    @Test("a response's own validator, when present, must be the same one")
    func consistency() throws {
        let tag = try #require(ResumeValidator(responseHeaders: ["ETag": "\"v1\""]))
        #expect(tag.isConsistent(with: [:]))
        #expect(tag.isConsistent(with: ["ETag": "\"v1\""]))
        #expect(!tag.isConsistent(with: ["ETag": "\"v2\""]))
        #expect(!tag.isConsistent(with: ["ETag": "W/\"v1\""]))
        let date = try #require(ResumeValidator(lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", date: "Mon, 07 Nov 1994 08:49:37 GMT"))
        #expect(date.isConsistent(with: ["Last-Modified": "Sunday, 06-Nov-94 08:49:37 GMT", "ETag": "W/\"anything\""]))
        #expect(!date.isConsistent(with: ["Last-Modified": "Sun, 06 Nov 1994 08:49:38 GMT"]))
    }
}
