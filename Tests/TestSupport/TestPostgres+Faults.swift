import Foundation

extension TestPostgres {
    /// Makes every commit-log entry that holds a revocation fail to be written, in the database at `url`, as a full
    /// disk, a lost privilege or a killed server would make the write of that one entry fail.
    public static func refuseRevocationEntries(in url: String) throws {
        try runSQL(
            """
            CREATE FUNCTION refuse_revocations() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.events::text LIKE '%"revoked"%' THEN
                    RAISE EXCEPTION 'the commit log refuses revocations';
                END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER refuse_revocations BEFORE INSERT ON commit_events
                FOR EACH ROW EXECUTE FUNCTION refuse_revocations();
            """, in: url)
    }

    /// Undoes `refuseRevocationEntries`.
    public static func acceptRevocationEntries(in url: String) throws {
        try runSQL("DROP TRIGGER refuse_revocations ON commit_events", in: url)
    }
}
