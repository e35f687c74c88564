import Foundation

/// The server, table and view query a `follow` URL names.
struct FollowTarget {
    var baseURL: URL
    var tableID: String
    var query: [URLQueryItem]

    /// `http://host:port[/prefix]/api/tables/ID[?query]` or `…/tables/ID[?query]`; nil for anything else.
    init?(_ text: String) {
        guard var components = URLComponents(string: text), components.scheme == "http" || components.scheme == "https"
        else { return nil }
        var segments = components.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let id = segments.last, !id.isEmpty, segments.count >= 3, segments[segments.count - 2] == "tables" else {
            return nil
        }
        segments.removeLast(2)
        if segments.last == "api" { segments.removeLast() }
        tableID = id
        query = components.queryItems ?? []
        components.path = segments.joined(separator: "/")
        components.query = nil
        guard let url = components.url else { return nil }
        baseURL = url
    }
}
