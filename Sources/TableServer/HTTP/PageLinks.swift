/// The `Link` header of a page of rows (RFC 8288; docs/API.md, "Reading"):
/// `first`, `prev`, `next` and `last`, each the same request at another
/// `offset` with the same `limit`.
///
/// Pages step by `limit` from the page asked for, so following `next` from any
/// page ends at `last`; `prev` is left out on a page at offset 0 and `next` on
/// the last page. `prev` of a page past the end is the last page. A `limit` of
/// 0 pages nothing, so it has no links.
struct PageLinks {
    /// The path the links share, without a query.
    let path: String
    let offset: Int
    let limit: Int
    /// How many rows there are to page through.
    let total: Int
    /// The rest of the query every link keeps (a view's, `&q=…`), or empty.
    var parameters = ""

    /// The offset of the last page: the one `next` reaches from `offset`, or,
    /// from past the end, the one counted from 0.
    var lastOffset: Int {
        guard total > 0 else { return 0 }
        let from = offset < total ? offset : 0
        return from + (total - 1 - from) / limit * limit
    }

    /// The header's value; nil for `limit` 0.
    var header: String? {
        guard limit > 0 else { return nil }
        let last = lastOffset
        var links = [link(0, "first")]
        if offset > 0 { links.append(link(max(0, min(offset - limit, last)), "prev")) }
        if offset < total, total - offset > limit { links.append(link(offset + limit, "next")) }
        links.append(link(last, "last"))
        return links.joined(separator: ", ")
    }

    private func link(_ offset: Int, _ relation: String) -> String {
        "<\(path)?offset=\(offset)&limit=\(limit)\(parameters)>; rel=\"\(relation)\""
    }
}
