-- Seeds a twitterd PostgreSQL database for bench/postgres.sh, straight in SQL: `twitterd seed` writes only
-- SQLite. Run once the daemon has created the schema and `seed1` has signed up through `auth.signup` (its
-- password hash is copied to every seeded account, so they all log in with seed1's password, as the SQLite
-- seed's do). Like `twitterd seed --users U --tweets T --follows F`, without the replies, reposts and likes:
--   users seed1…seedU (ids 1…U), e-mails seedN@example.com;
--   each follows between F/2 and 3F/2 others, picked by popularity: account r is picked with weight about 1/r
--     (floor(exp(u·ln(U+1))) for u uniform in [0, 1)), so seed1 is followed by nearly everyone;
--   T tweets by random authors, 3 to 20 words of the seed's vocabulary cut at a word to 140 characters,
--     dated over the last 30 days in id order, with their tag rows.
-- The tweet table's author and search indexes are dropped for the load and made again after it, with the
-- schema's definitions: one index build instead of a million index inserts.
--
--   psql -v users=10000 -v tweets=1000000 -v follows=100 -f bench/postgres-seed.sql URL
\set ON_ERROR_STOP on
SET maintenance_work_mem = '512MB';

BEGIN;
DO $$ BEGIN
    IF (SELECT id FROM users WHERE username_key = 'seed1') IS DISTINCT FROM 1 OR (SELECT count(*) FROM users) <> 1 THEN
        RAISE 'expected one account, seed1 with id 1, signed up through the daemon';
    END IF;
END $$;

INSERT INTO users (id, username, username_key, email, email_key, password_hash, first_name, last_name, created_at,
    updated_at)
SELECT g, 'seed' || g, 'seed' || g, 'seed' || g || '@example.com', 'seed' || g || '@example.com', seed1.password_hash,
    (ARRAY['Ada', 'Alan', 'Barbara', 'Brian', 'Claude', 'Dennis', 'Donald', 'Edsger', 'Frances', 'Grace', 'Guido',
        'Hedy', 'Ivan', 'John', 'Ken', 'Linus', 'Margaret', 'Niklaus', 'Radia', 'Rob', 'Sophie', 'Tim', 'Vint',
        'Whitfield', 'Yukihiro', 'Zhang', 'Katherine', 'Leslie', 'Lynn', 'Marvin'])[1 + floor(random() * 30)::int],
    (ARRAY['Lovelace', 'Turing', 'Liskov', 'Kernighan', 'Shannon', 'Ritchie', 'Knuth', 'Dijkstra', 'Allen', 'Hopper',
        'Rossum', 'Lamarr', 'Sutherland', 'McCarthy', 'Thompson', 'Torvalds', 'Hamilton', 'Wirth', 'Perlman',
        'Pike', 'Wilson', 'Lee', 'Cerf', 'Diffie', 'Matsumoto', 'Lin', 'Johnson', 'Lamport', 'Conway',
        'Minsky'])[1 + floor(random() * 30)::int],
    now(), now()
FROM generate_series(2, :users) g, (SELECT password_hash FROM users WHERE id = 1) seed1
ORDER BY g;
SELECT setval(pg_get_serial_sequence('users', 'id'), :users);

-- For each account, three times as many popularity-weighted picks as it wants, and as many distinct ones
-- as it wants of those (`0 * u` ties each lateral row to its account, so random() is drawn per account).
INSERT INTO follows (follower_id, followee_id, created_at)
SELECT u, picked.followee, now()
FROM generate_series(1, :users) u
CROSS JOIN LATERAL (SELECT (:follows / 2 + floor(random() * (:follows + 1)))::int + 0 * u AS count) wanted
CROSS JOIN LATERAL (
    SELECT DISTINCT followee FROM (
        SELECT floor(exp(random() * ln(:users + 1)))::bigint AS followee FROM generate_series(1, wanted.count * 3)
    ) draws
    WHERE followee <> u AND followee BETWEEN 1 AND :users
    LIMIT wanted.count) picked
ORDER BY u;

DROP INDEX tweet_author_id;
DROP INDEX tweet_search;
INSERT INTO tweets (author_id, text, created_at)
SELECT author, (regexp_match(words || ' ', '^(.{1,140}) '))[1], created_at
FROM (
    SELECT g, 1 + floor(random() * :users)::bigint AS author,
        now() - interval '30 days' + interval '30 days' * g / :tweets AS created_at,
        -- `+ 0 * word` keeps the aggregate in the subquery (one over only outer columns would be the outer
        -- query's), and `0 * g` draws the length again for every tweet.
        (SELECT string_agg(vocabulary[1 + floor(random() * array_length(vocabulary, 1))::int + 0 * word], ' ')
            FROM generate_series(1, 3 + floor(random() * 18)::int + 0 * g) word) AS words
    FROM generate_series(1, :tweets) g,
        (SELECT ARRAY['shipping', 'today', 'coffee', 'release', 'daemon', 'socket', 'kernel', 'weekend', 'finally',
            'tests', 'green', 'build', 'deploy', 'rust', 'swift', 'linux', 'systemd', 'latency', 'cache', 'queue',
            'logs', 'tiny', 'fast', 'again', 'why', 'works', 'on', 'my', 'machine', 'the', 'a', 'is', 'new', 'bug',
            'fixed', 'reading', 'about', 'great', 'talk', 'benchmark', 'numbers', 'look', 'good', 'sqlite', 'wal',
            'fsync', 'morning', 'rain', 'train', 'late', '🚀', '☕️', '🎉', '👩‍💻', '#swift', '#linux',
            '@here'] AS vocabulary) v
) drafts
ORDER BY g;
CREATE INDEX tweet_author_id ON tweets (author_id, id);
CREATE INDEX tweet_search ON tweets USING gin (search);

-- Seeded tweets carry their tags as posted ones do (no account is named "here": no mention rows).
INSERT INTO tweet_tags (tag, tweet_id, author_id, created_at)
SELECT tags.tag, tweets.id, tweets.author_id, tweets.created_at
FROM tweets, (VALUES ('swift'), ('linux')) tags (tag)
WHERE strpos(tweets.text, '#' || tags.tag) > 0;
COMMIT;

VACUUM ANALYZE;
-- The load's dirty pages go to disk now, not during the first measured posts.
CHECKPOINT;
SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM follows) AS follows,
    (SELECT count(*) FROM tweets) AS tweets, (SELECT count(*) FROM tweet_tags) AS tags;
