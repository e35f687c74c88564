/// Just enough JSON writing for problem documents; MicroHTTP has no JSON dependency.
enum JSONText {
    /// Appends `text` as a quoted, escaped JSON string.
    static func appendString(_ text: String, to output: inout String) {
        output.unicodeScalars.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output.unicodeScalars.append("\"")
    }
}
