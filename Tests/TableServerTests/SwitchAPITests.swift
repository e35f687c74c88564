import JSON
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// `POST …/rows/{r}/switch` and `POST …/items/{rowID}/switch` (docs/API.md,
/// "Switches"): a flip is a reload of the row published like any other change,
/// refused in UIKit's words where the row cannot be flipped.
@Suite struct SwitchAPITests {
    static func settings() -> Table {
        Table(
            id: "settings", style: .grouped,
            sections: [
                Section(
                    id: "radios",
                    rows: [
                        Row(
                            id: "airplane", text: "Airplane Mode", accessoryView: .switch(isOn: false, isEnabled: true)),
                        Row(id: "wifi", text: "Wi-Fi", accessoryView: .switch(isOn: true, isEnabled: true)),
                        Row(id: "managed", text: "Managed", accessoryView: .switch(isOn: true, isEnabled: false)),
                        Row(id: "general", text: "General", accessory: .disclosureIndicator),
                    ])
            ])
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func aFlipIsAReloadOfTheRowInTheChangeFeed(_ transport: TestTransport) throws {
        try withServer(transport, tables: [Self.settings()]) { client in
            let flipped = try client.request(
                .POST, "/api/tables/settings/sections/0/rows/0/switch", headers: jsonHeaders,
                body: body(#"{"on": true}"#))
            #expect(flipped.status == 200)
            let change = try flipped.json
            #expect(change["version"]?.int == 1)
            #expect(change["batch"]?["animation"]?.string == "none")
            #expect(change["batch"]?["reloadRows"]?[0]?["at"] == .array([.integer(0), .integer(0)]))
            #expect(
                change["batch"]?["reloadRows"]?[0]?["row"]?["accessoryView"]
                    == .object(
                        JSONObject([
                            JSONMember("type", .string("switch")), JSONMember("on", .bool(true)),
                            JSONMember("enabled", .bool(true)),
                        ])))
            #expect(change["batch"]?["moveRows"] == nil)

            let byID = try client.request(
                .POST, "/api/tables/settings/items/wifi/switch", headers: jsonHeaders, body: body(#"{"on": false}"#))
            #expect(try byID.json["version"]?.int == 2)
            #expect(
                try client.request(.GET, "/api/tables/settings/sections/0/rows/1").json["accessoryView"]?["on"]
                    == .bool(false))

            let same = try client.request(
                .POST, "/api/tables/settings/items/wifi/switch", headers: jsonHeaders, body: body(#"{"on": false}"#))
            #expect(try same.json["version"]?.int == 2, "setting the value it has changes nothing")

            let feed = try client.request(.GET, "/api/tables/settings/changes?since=0").json
            #expect(feed["changes"]?.array?.count == 2)
            #expect(feed["changes"]?[1]?["batch"]?["reloadRows"]?[0]?["row"]?["id"]?.string == "wifi")
        }
    }

    @Test(arguments: [
        (
            "/api/tables/settings/sections/0/rows/3/switch", 409, "not-a-switch",
            #"attempt to flip the switch of row 3 in section 0 of table "settings", whose accessoryView is not a UISwitch"#
        ),
        (
            "/api/tables/settings/sections/0/rows/2/switch", 409, "switch-disabled",
            #"attempt to flip the switch of row 2 in section 0 of table "settings", which is not enabled (isEnabled == NO)"#
        ),
        (
            "/api/tables/settings/items/general/switch", 409, "not-a-switch",
            #"attempt to flip the switch of item "general" of table "settings", whose accessoryView is not a UISwitch"#
        ),
        (
            "/api/tables/settings/items/managed/switch", 409, "switch-disabled",
            #"attempt to flip the switch of item "managed" of table "settings", which is not enabled (isEnabled == NO)"#
        ),
        (
            "/api/tables/settings/items/nope/switch", 409, "unknown-id",
            #"attempt to flip the switch of item "nope" of table "settings", which is not in the table"#
        ),
        (
            "/api/tables/settings/sections/0/rows/9/switch", 404, "not-found",
            #"table "settings" has no row 9 in section 0"#
        ),
    ])
    func refusalsChangeNothing(path: String, status: Int, type: String, detail: String) throws {
        try withServer(.inProcess, tables: [Self.settings()]) { client in
            let refused = try client.request(.POST, path, headers: jsonHeaders, body: body(#"{"on": true}"#))
            #expect(refused.status == status)
            #expect(try refused.json["type"]?.string == type)
            #expect(try refused.json["detail"]?.string == detail)
            #expect(try client.request(.GET, "/api/tables/settings").json["version"]?.int == 0)
        }
    }

    @Test(arguments: [
        (#"{}"#, #"$: missing required field "on""#),
        (#"{"on": "yes"}"#, "$.on: expected true or false, found a string"),
        (#"{"on": true, "animated": true}"#, #"$: unknown field "animated""#),
    ])
    func aBadBodyIsRefusedWithItsPath(text: String, issue: String) throws {
        try withServer(.inProcess, tables: [Self.settings()]) { client in
            let refused = try client.request(
                .POST, "/api/tables/settings/items/wifi/switch", headers: jsonHeaders, body: body(text))
            #expect(refused.status == 422)
            let first = try refused.json["errors"]?[0]
            #expect("\(first?["path"]?.string ?? ""): \(first?["message"]?.string ?? "")" == issue)
        }
    }
}
