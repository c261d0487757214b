/// The list fields' rules, declared once as values: what `lists.create` and `lists.update` accept.
public enum ListRules {
    /// One line of 1 to 25 characters.
    public static let name = FreeText.validator(
        "Name", allowsNewlines: false,
        length: Validator<String>.notEmpty("Name can not be empty")
            .and(.maximumLength(25, "Name is at most 25 characters")))

    /// One line of at most 100 characters.
    public static let description = FreeText.validator(
        "Description", allowsNewlines: false,
        length: .maximumLength(100, "Description is at most 100 characters"))

    /// A new list's fields, normalised (`FreeText.normalize`) as they are checked and stored.
    public static func normalize(_ draft: ListDraft) -> ListDraft {
        ListDraft(
            name: FreeText.normalize(draft.name), description: FreeText.normalize(draft.description),
            isPrivate: draft.isPrivate)
    }

    /// A change's present fields, normalised.
    public static func normalize(_ patch: ListPatch) -> ListPatch {
        ListPatch(
            name: patch.name.map(FreeText.normalize), description: patch.description.map(FreeText.normalize),
            isPrivate: patch.isPrivate)
    }

    /// Every field of a new list checked at once.
    public static let draft = Validator<ListDraft>.all([
        .field(\.name, "name", name),
        .field(\.description, "description", description),
    ])

    /// Every present field of a change checked at once; absent fields are left alone.
    public static let patch = Validator<ListPatch>.all([
        .field(\.name, "name", .ifPresent(name)),
        .field(\.description, "description", .ifPresent(description)),
    ])
}
