extension Batch {
    /// What the batch does, in a few words for one line of an audit trail
    /// (`webtableview audit`): `"inserted 2 rows, reloaded 1 row"`; `"nothing"`
    /// for an empty batch.
    public var summary: String {
        var parts: [String] = []
        func count(_ number: Int, _ verb: String, _ noun: String) {
            guard number > 0 else { return }
            parts.append("\(verb) \(number) \(noun)\(number == 1 ? "" : "s")")
        }
        count(deleteSections.count, "deleted", "section")
        count(insertSections.count, "inserted", "section")
        count(reloadSections.count, "reloaded", "section")
        count(moveSections.count, "moved", "section")
        count(deleteRows.count, "deleted", "row")
        count(insertRows.count, "inserted", "row")
        count(reloadRows.count, "reloaded", "row")
        count(moveRows.count, "moved", "row")
        if let properties, !properties.isEmpty { parts.append("set the table's properties") }
        if let press { parts.append("pressed the accessory of \(press.id.map { "row \"\($0)\"" } ?? "a row")") }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}
