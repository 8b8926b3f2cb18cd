import Foundation

/// HTTP dates (RFC 9110 §5.6.7). Written as IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT",
/// the only form senders may write; read in that form and the two obsolete ones that
/// recipients must still accept: RFC 850 ("Sunday, 06-Nov-94 08:49:37 GMT") and asctime
/// ("Sun Nov  6 08:49:37 1994"). Used for `Date`, `Expires`, `Last-Modified` and
/// `Retry-After`.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The IMF-fixdate of a time in seconds since 1970.
    public static func format(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The IMF-fixdate of `date` (its fraction of a second dropped).
    public static func format(_ date: Date) -> String {
        format(secondsSince1970: Int(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Seconds since 1970 of an HTTP date in any of the three forms; nil for anything else.
    ///
    /// An RFC 850 date's two-digit year is read as the year of the most recent century
    /// that does not put it more than 50 years ahead of `now` (RFC 9110 §5.6.7).
    public static func parse(_ string: String, now: Date = Date()) -> Int? {
        let fields = string.split(separator: " ")
        switch fields.count {
        case 6: return imfFixdate(fields)
        case 4: return rfc850(fields, now: now)
        case 5: return asctime(fields)
        default: return nil
        }
    }

    /// `date` of `string`, or nil: ``parse(_:now:)`` as a `Date`.
    public static func date(_ string: String, now: Date = Date()) -> Date? {
        parse(string, now: now).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    // "Sun, 06 Nov 1994 08:49:37 GMT"
    private static func imfFixdate(_ fields: [Substring]) -> Int? {
        guard fields[0].count == 4, fields[0].last == ",", days.contains(String(fields[0].dropLast())),
            fields[5] == "GMT", fields[1].count == 2, let day = Int32(fields[1]),
            let month = months.firstIndex(of: String(fields[2])),
            fields[3].count == 4, let year = Int32(fields[3])
        else { return nil }
        return seconds(year: year, month: month, day: day, clock: fields[4])
    }

    // "Sunday, 06-Nov-94 08:49:37 GMT"
    private static func rfc850(_ fields: [Substring], now: Date) -> Int? {
        guard fields[0].last == ",", fields[3] == "GMT" else { return nil }
        let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 2, let day = Int32(parts[0]),
            let month = months.firstIndex(of: String(parts[1])),
            parts[2].count == 2, let shortYear = Int32(parts[2])
        else { return nil }
        var nowTime = time_t(now.timeIntervalSince1970)
        var nowParts = tm()
        gmtime_r(&nowTime, &nowParts)
        let thisYear = nowParts.tm_year + 1900
        var year = thisYear - thisYear % 100 + shortYear
        if year > thisYear + 50 { year -= 100 }
        return seconds(year: year, month: month, day: day, clock: fields[2])
    }

    // "Sun Nov  6 08:49:37 1994" (the day padded with a space: split drops the empty field)
    private static func asctime(_ fields: [Substring]) -> Int? {
        guard days.contains(String(fields[0])), let month = months.firstIndex(of: String(fields[1])),
            (1...2).contains(fields[2].count), let day = Int32(fields[2]),
            fields[4].count == 4, let year = Int32(fields[4])
        else { return nil }
        return seconds(year: year, month: month, day: day, clock: fields[3])
    }

    private static func seconds(year: Int32, month: Int, day: Int32, clock: Substring) -> Int? {
        let time = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 3, time.allSatisfy({ $0.count == 2 }),
            let hour = Int32(time[0]), let minute = Int32(time[1]), let second = Int32(time[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second), (1...31).contains(day)
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Int(timegm(&parts))
    }
}
