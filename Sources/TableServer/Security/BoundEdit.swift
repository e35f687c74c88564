import JSON
import MicroHTTP

/// The answer to an edit by a requester bound to a view of the table
/// (docs/ACCESS.md, "Rows per reader"): `{"version": N}` alone. The edit's
/// batch is in the table's index paths, which would say where the row stands
/// among rows the requester cannot see; its view's batch comes on `…/events`.
enum BoundEdit {
    /// `response` with its body cut to its `version`; as it is when it is no
    /// edit's `{version, batch}` (a refusal, a problem).
    @Sendable static func versionOnly(_ response: HTTPResponse) -> HTTPResponse {
        guard response.status == 200, case .bytes(let bytes) = response.body,
            case .object(let change)? = try? JSONParser().parse(bytes), case .integer(let version)? = change["version"]
        else { return response }
        var answer = response
        answer.body = .bytes(Array("{\"version\":\(version)}\n".utf8))
        return answer
    }
}
