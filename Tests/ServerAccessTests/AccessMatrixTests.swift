import Foundation
import JSON
import MicroHTTP
import TableAccess
import TableServer
import TableServerTesting
import Testing

/// Every operation of the OpenAPI document × every kind of requester, so
/// that no route is left out of the access check (docs/ACCESS.md, "Routes").
@Suite struct AccessMatrixTests {
    /// What the contract says an operation needs (docs/ACCESS.md), restated
    /// here from the method and path alone.
    enum Needs: Equatable {
        case nothing, listing, read, edit, admin, operatorOnly
    }

    static func needs(_ method: HTTPMethod, _ path: String) -> Needs {
        switch (method, path) {
        case (_, "/metrics"): .operatorOnly
        case (.GET, "/"), (.GET, "/api/tables"): .listing
        case (.POST, "/api/tables"), (.PUT, "/api/tables/{t}"), (.DELETE, "/api/tables/{t}"): .admin
        case (.POST, "/api/tables/{t}/share"): .admin
        // A share link's key is its credential (docs/ACCESS.md, "Share links").
        case (.GET, "/tables/{t}/share"): .nothing
        case (.GET, _) where path.contains("{t}"): .read
        case (_, _) where path.contains("{t}"): .edit
        default: .nothing
        }
    }

    /// Who sends the requests.
    enum Requester: CaseIterable {
        case anonymous, reader, rowBoundReader, editor, admin, editToken
        case expired, wrongAudience, wrongIssuer, notYetValid, tampered, algNone, algorithmConfusion

        /// The right it has on table `t`; nil for a credential that is refused.
        var right: AccessRight? {
            switch self {
            case .reader, .rowBoundReader: .read
            case .editor: .edit
            case .admin, .editToken: .admin
            default: nil
            }
        }

        var isRefusedCredential: Bool { self != .anonymous && right == nil }
    }

    static func authorization(_ requester: Requester, keys: AccessKeys) async throws -> String? {
        let token: String
        switch requester {
        case .anonymous: return nil
        case .editToken: return "Bearer \(editToken)"
        case .reader: token = try await keys.token(sub: "reader")
        case .rowBoundReader: token = try await keys.token(sub: "A0", roles: ["row-reader"])
        case .editor: token = try await keys.token(sub: "e", roles: ["editor"], kid: "ec1")
        case .admin: token = try await keys.token(sub: "boss", team: "ops")
        case .expired: token = try await keys.token(team: "ops", expiresIn: -10)
        case .wrongAudience: token = try await keys.token(team: "ops", audience: "another-service")
        case .wrongIssuer: token = try await keys.token(team: "ops", issuer: "https://elsewhere.example")
        case .notYetValid: token = try await keys.token(team: "ops", notBefore: 600)
        case .tampered:
            // A reader's token whose payload now says team ops, its signature kept.
            let parts = try await keys.token(sub: "reader").split(separator: ".")
            let now = Int(Date().timeIntervalSince1970) + 3600
            let payload =
                #"{"sub":"reader","team":"ops","exp":\#(now),"iss":"\#(AccessKeys.issuer)","aud":"\#(AccessKeys.audience)"}"#
            token = "\(parts[0]).\(base64URL(Array(payload.utf8))).\(parts[2])"
        case .algNone:
            let parts = try await keys.token(team: "ops").split(separator: ".")
            token = "\(base64URL(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))).\(parts[1])."
        case .algorithmConfusion:
            // HS256 under the ES256 key's kid, keyed with that key's public parameters.
            let (x, y) = keys.ecdsa.publicKey.parameters!
            let confused = await AccessKeys()
            await confused.signing.add(hmac: .init(from: x + y), digestAlgorithm: .sha256, kid: "ec1")
            token = try await confused.token(team: "ops", kid: "ec1")
        }
        return "Bearer \(token)"
    }

    static let editToken = "edit-token-of-the-access-tests"

    /// Each operation of the OpenAPI document: its method, its path template.
    static func operations() throws -> [(method: HTTPMethod, path: String)] {
        let url = packageRoot.appendingPathComponent("Sources/TableServer/OpenAPI/openapi.json")
        let document = try JSONParser().parse(Array(try Data(contentsOf: url)))
        guard case .object(let paths)? = document["paths"] else { return [] }
        var operations: [(method: HTTPMethod, path: String)] = []
        for member in paths.members {
            guard case .object(let item) = member.value else { continue }
            for key in item.keys {
                if let method = HTTPMethod(rawValue: key.uppercased()) { operations.append((method, member.key)) }
            }
        }
        return operations
    }

    /// A path of the fixture's table `t` for the template.
    static func concrete(_ template: String) -> String {
        template.replacingOccurrences(of: "{t}", with: "t").replacingOccurrences(of: "{s}", with: "0")
            .replacingOccurrences(of: "{r}", with: "0").replacingOccurrences(of: "{rowID}", with: "a0")
            .replacingOccurrences(of: "{sectionID}", with: "a").replacingOccurrences(of: "{version}", with: "v")
            .replacingOccurrences(of: "{path}", with: "app.js")
    }

    @Test(arguments: Requester.allCases)
    func everyOperationIsCheckedForEveryRequester(_ requester: Requester) async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try makeServer(tables: [fixtureTable(), fixtureTable(id: "other")]) { options in
            options.accessPolicy = try! AccessPolicy(json: testPolicy)
            options.tokenVerifier = verifier
            options.token = Self.editToken
            options.shareLinks = ShareFixture.links
        }
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Host": "127.0.0.1"]
        if let authorization = try await Self.authorization(requester, keys: keys) {
            headers.set("Authorization", authorization)
        }
        let operations = try Self.operations()
        #expect(operations.count >= 50)
        for (method, template) in operations {
            let path = Self.concrete(template)
            let response = await answer(server.router, method, path, headers: headers, body: Array("{}".utf8))
            let type = try? JSONParser().parse(bytes(of: response))["type"]?.string
            let needs = Self.needs(method, template)
            let what = "\(requester) \(method) \(template): \(response.status) \(type ?? "")"
            switch needs {
            case .nothing:
                #expect(response.status != 401 && response.status != 403, "\(what)")
            case _ where requester.isRefusedCredential:
                #expect(response.status == 401, "\(what)")
                #expect(type == "invalid-token", "\(what)")
                #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Bearer ") == true, "\(what)")
            case .listing:
                #expect(response.status == 200, "\(what)")
            default:
                let needed: AccessRight =
                    switch needs {
                    case .read: .read
                    case .edit: .edit
                    default: .admin
                    }
                let allowed =
                    needs == .operatorOnly
                    ? (requester == .admin || requester == .editToken) : (requester.right.map { $0 >= needed } ?? false)
                if allowed && requester == .rowBoundReader && template == "/api/tables/{t}/changes" {
                    // The table's feed is in the table's index paths; the reader's view's is its stream.
                    #expect(response.status == 403, "\(what)")
                    #expect(type == "bound-to-view", "\(what)")
                } else if allowed {
                    #expect(response.status != 401 && response.status != 403, "\(what)")
                } else if requester == .anonymous {
                    #expect(response.status == 401, "\(what)")
                    #expect(type == "unauthorized", "\(what)")
                    #expect(response.headers["WWW-Authenticate"] == "Bearer realm=\"webtableview\"", "\(what)")
                } else {
                    #expect(response.status == 403, "\(what)")
                    #expect(type == "missing-right", "\(what)")
                }
            }
        }
    }

    @Test func everyRouteOfTheServerIsAnOperationOfTheDocument() throws {
        let server = try makeServer { $0.accessPolicy = try! AccessPolicy(json: testPolicy) }
        let documented = Set(try Self.operations().map { "\($0.method) \($0.path)" })
        for route in server.router.routes {
            let template = route.pattern.replacingOccurrences(of: "...}", with: "}")
            #expect(documented.contains("\(route.method) \(template)"), "\(route.method) \(route.pattern)")
        }
    }
}
