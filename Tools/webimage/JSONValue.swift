import Foundation

/// Just enough JSON to print one object per line with its keys in a fixed order and
/// explicit nulls (JSONEncoder drops nil optionals and reorders keys).
enum JSONValue {
    case string(String)
    case number(Double)
    case array([JSONValue])
    case object([(String, JSONValue)])
    case null

    var serialized: String {
        switch self {
        case .string(let text): return JSONValue.quote(text)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case .array(let items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case .object(let fields): return "{" + fields.map { JSONValue.quote($0.0) + ":" + $0.1.serialized }.joined(separator: ",") + "}"
        case .null: return "null"
        }
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
