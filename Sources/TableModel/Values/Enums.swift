/// The look of a whole table, as `UITableView.Style`.
public enum TableStyle: String, Sendable, CaseIterable, Codable {
    case plain, grouped, insetGrouped
}

/// How a cell lays out its labels, as `UITableViewCell.CellStyle` (plus `custom`,
/// a row drawn by a named template, like a prototype cell).
public enum CellStyle: String, Sendable, CaseIterable, Codable {
    case `default`, subtitle, value1, value2, custom
}

/// The standard accessory drawn at a cell's trailing edge, as `UITableViewCell.AccessoryType`.
public enum Accessory: String, Sendable, CaseIterable, Codable {
    case none, disclosureIndicator, detailDisclosureButton, checkmark, detailButton
}

/// Whether a cell highlights when selected, as `UITableViewCell.SelectionStyle`.
public enum SelectionStyle: String, Sendable, CaseIterable, Codable {
    case `default`, none
}

/// The control a row shows in editing mode, as `UITableViewCell.EditingStyle`.
public enum EditingStyle: String, Sendable, CaseIterable, Codable {
    case delete, insert, none
}

/// How inserted, deleted and reloaded items are animated, as `UITableView.RowAnimation`.
public enum RowAnimation: String, Sendable, CaseIterable, Codable {
    case fade, right, left, top, bottom, middle, none, automatic
}
