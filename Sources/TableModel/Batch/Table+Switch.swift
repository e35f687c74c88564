/// Why `Table.switchBatch(settingOn:at:)` makes no change.
public enum SwitchRefusal: Error, Sendable, Equatable {
    /// The index path names no row.
    case noRow
    /// No row has this id.
    case unknownID(String)
    /// The row's `accessoryView` is not a switch.
    case notASwitch
    /// The row's switch is not enabled (`UIControl.isEnabled` is false).
    case disabled
}

extension Table {
    /// Flipping a row's `UISwitch` (`setOn(_:animated:)` after `.valueChanged`)
    /// as a change: a `reloadRows` (animation `none`) of the row with the switch's
    /// new value. Setting the value it already has changes nothing (an empty
    /// batch). Refused for a row whose accessory view is not a switch, or whose
    /// switch is not enabled.
    public func switchBatch(settingOn isOn: Bool, at indexPath: TableIndexPath) throws(SwitchRefusal) -> Batch {
        guard var target = row(at: indexPath) else { throw .noRow }
        guard case .switch(let wasOn, let isEnabled) = target.accessoryView else { throw .notASwitch }
        guard isEnabled else { throw .disabled }
        if wasOn == isOn { return Batch() }
        target.accessoryView = .switch(isOn: isOn, isEnabled: true)
        return Batch(reloadRows: [.init(at: indexPath, row: target)], animation: .none)
    }

    /// `switchBatch(settingOn:at:)` for the row with id `id`.
    public func switchBatch(settingOn isOn: Bool, forItem id: String) throws(SwitchRefusal) -> Batch {
        guard ids.rowIDs.contains(id) else { throw .unknownID(id) }
        for (s, section) in sections.enumerated() {
            for (r, row) in section.rows.enumerated() where row.id == id {
                return try switchBatch(settingOn: isOn, at: TableIndexPath(s, r))
            }
        }
        throw .unknownID(id)
    }
}
