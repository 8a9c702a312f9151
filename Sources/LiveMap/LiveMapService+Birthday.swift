/// A person's birthday (Actionmoji): set and cleared by its owner, shown to friends in their friends list.
extension LiveMapService {
    /// The birthday `me` set, nil for none; `notFound` when `me` does not exist.
    public func birthday(of me: PersonID) throws -> Birthday? {
        guard try store.person(me) != nil else { throw LiveMapError.notFound(id: me.rawValue) }
        return try store.birthday(of: me)
    }

    /// Sets (nil: clears) the birthday of `me`; friends' views hear of it as of any change of the person.
    public func setBirthday(_ me: PersonID, _ birthday: Birthday?) throws {
        guard try store.person(me) != nil else { throw LiveMapError.notFound(id: me.rawValue) }
        try store.setBirthday(birthday, of: me)
        notify(.person(me))
    }
}
