import MicroHTTP

/// The two forms a table is answered in (docs/API.md, "CSV"): its JSON document
/// or CSV, chosen by `?format=` or else by `Accept`.
enum TableFormat: Equatable {
    case json
    case csv

    static let csvType = "text/csv; charset=utf-8; header=present"

    /// The form `request` asks for; nil when its `Accept` allows neither (406).
    /// No `Accept`, `*/*` and a browser's `text/html,…,*/*;q=0.8` get JSON;
    /// `text/csv` or `text/*` preferred over JSON gets CSV.
    static func requested(by request: HTTPRequest) throws -> TableFormat? {
        if let format = request.query["format"] {
            switch format {
            case "json": return .json
            case "csv": return .csv
            default:
                throw TableServerError.badRequest(
                    type: "bad-parameter", detail: "query parameter format must be json or csv")
            }
        }
        guard let accept = request.headers["Accept"], !accept.isEmpty else { return .json }
        var json = 0.0
        var csv = 0.0
        for range in accept.split(separator: ",") {
            let (type, quality) = mediaRange(range)
            switch type {
            case "*/*":
                json = max(json, quality)
                csv = max(csv, quality)
            case "application/*", "application/json":
                json = max(json, quality)
            case "text/*", "text/csv":
                csv = max(csv, quality)
            default:
                if type.hasPrefix("application/") && type.hasSuffix("+json") { json = max(json, quality) }
            }
        }
        if json == 0 && csv == 0 { return nil }
        return csv > json ? .csv : .json
    }

    /// A media range's type, lowercased, and its `q` (1 when not given).
    private static func mediaRange(_ range: Substring) -> (type: String, quality: Double) {
        let parts = range.split(separator: ";")
        let type = HTTPRequest.mediaType(String(parts.first ?? ""))
        var quality = 1.0
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingSpaces().lowercased() == "q" {
                quality = Double(pair[1].trimmingSpaces()) ?? 0
            }
        }
        return (type, min(max(quality, 0), 1))
    }
}
