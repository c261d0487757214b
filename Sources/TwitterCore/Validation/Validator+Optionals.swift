extension Validator {
    /// The optional must hold a value, which `validator` then checks.
    public static func required<Wrapped>(_ message: String, _ validator: Validator<Wrapped> = .valid) -> Validator
    where Value == Wrapped? {
        Validator { value in
            guard let value else { return [ValidationFailure(message)] }
            return validator.failures(for: value)
        }
    }

    /// nil is allowed; a present value must pass `validator`.
    public static func ifPresent<Wrapped>(_ validator: Validator<Wrapped>) -> Validator where Value == Wrapped? {
        Validator { value in value.map(validator.failures(for:)) ?? [] }
    }
}
