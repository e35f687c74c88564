/// A control or view drawn at a cell's trailing edge, as a view set as
/// `UITableViewCell.accessoryView`. When a row has one it is drawn instead of the
/// row's standard `accessory` (UIKit ignores `accessoryType` while `accessoryView`
/// is set); the `accessory` is kept and is drawn again once `accessoryView` is
/// `null`. docs/FORMAT.md, "Accessory views", gives the JSON.
public enum AccessoryView: Sendable, Hashable {
    /// A `UISwitch`: `isOn` its value; a switch that is not enabled is drawn
    /// dimmed and cannot be flipped from the page or the API.
    case `switch`(isOn: Bool, isEnabled: Bool)
    /// A count or short text in a rounded badge (like Mail's unread count).
    case badge(String)
    /// A spinning `UIActivityIndicatorView`: the row is working.
    case activityIndicator
    /// A `UIButton` with a title; a press is an event a client can follow.
    case button(title: String)

    /// The `type` of the JSON object.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case `switch`, badge, activityIndicator, button
    }

    public var kind: Kind {
        switch self {
        case .switch: .switch
        case .badge: .badge
        case .activityIndicator: .activityIndicator
        case .button: .button
        }
    }
}
