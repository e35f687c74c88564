/// The table the checks create, edit and delete: two sections with ids, rows
/// with ids and one of each accessory view.
enum Fixture {
    typealias Row = Components.Schemas.Row

    static let id = "generated-client"
    static let title = "Generated client"

    static let fruit: [Row] = [
        Row(
            id: "apple", text: "Apple", detail: "red",
            accessoryView: ._switch(.init(_type: ._switch, on: false, enabled: true))),
        Row(id: "banana", text: "Banana", detail: "yellow", accessoryView: .badge(.init(_type: .badge, text: "3"))),
        Row(
            id: "cherry", text: "Cherry", detail: "red",
            accessoryView: .activityIndicator(.init(_type: .activityIndicator))),
        Row(id: "date", text: "Date", detail: "brown", accessoryView: .button(.init(_type: .button, title: "Info"))),
        Row(id: "elderberry", text: "Elderberry", detail: "black"),
    ]
    static let vegetables: [Row] = [
        Row(id: "carrot", text: "Carrot", detail: "orange"),
        Row(id: "leek", text: "Leek", detail: "green"),
    ]

    static var table: Components.Schemas.Table {
        Components.Schemas.Table(
            value1: .init(
                id: id, title: title, style: .insetGrouped,
                sections: [
                    .init(id: "fruit", header: "Fruit", rows: fruit),
                    .init(id: "vegetables", header: "Vegetables", rows: vegetables),
                ]),
            value2: .init(id: id))
    }

    /// A row edited by id.
    static func item(_ id: String, _ text: String, detail: String? = nil) -> Components.Schemas.ItemRow {
        .init(value1: Row(text: text, detail: detail), value2: .init(id: id))
    }
}

extension Components.Schemas.TableSnapshot {
    /// Each section's row texts, in order.
    var texts: [[String]] { (sections ?? []).map { ($0.rows ?? []).map { $0.text ?? "" } } }
}
