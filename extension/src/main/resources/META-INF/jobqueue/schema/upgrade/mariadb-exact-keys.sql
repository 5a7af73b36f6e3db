-- jobqueue upgrade for MariaDB: makes queue names, dedupe keys, ordering keys and group names compare byte for
-- byte, as mariadb.sql now creates them. Tables created by an earlier mariadb.sql compare them with the database's
-- default collation, which ignores case, accents and trailing spaces, so that 'Ab1' and 'ab1' are one dedupe key.
-- Run it once on existing tables, with the applications stopped: each ALTER rebuilds its table. It is idempotent:
-- running it again changes nothing. jobqueue refuses to start on tables that need it (JQ034), unless
-- jobqueue.schema.create=true, which runs it.
ALTER TABLE jobqueue_job
    MODIFY queue VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    MODIFY dedupe_key VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
    MODIFY ordering_key VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
    MODIFY group_name VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
    MODIFY dedupe_slot VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin
        AS (CASE WHEN state IN ('PENDING', 'RUNNING', 'WAITING') THEN dedupe_key END) PERSISTENT;
ALTER TABLE jobqueue_group
    MODIFY name VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
ALTER TABLE jobqueue_queue
    MODIFY name VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
-- Group names that differed only in case, accents or trailing spaces shared one group row; each gets its own.
INSERT IGNORE INTO jobqueue_group (name, created_at)
    SELECT group_name, MIN(created_at) FROM jobqueue_job WHERE group_name IS NOT NULL GROUP BY group_name;
