/// What a phone's motion sensors say its owner is doing, sent with a location fix (Actionmoji).
public enum Activity: String, CaseIterable, Hashable, Sendable {
    case still, walking, running, cycling, automotive, flying

    /// The activity a field's text names; anything else is an error naming the field and the allowed values.
    public static func parse(_ text: String, field: String = "activity") throws(LiveMapError) -> Activity {
        guard let activity = Activity(rawValue: text) else {
            let allowed = allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalid(field: field, message: "must be one of \(allowed), got \"\(text.prefix(16))\"")
        }
        return activity
    }
}
