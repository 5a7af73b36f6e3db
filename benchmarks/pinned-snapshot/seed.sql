-- 400,000 due PENDING jobs on queue q, one millisecond apart, as the claim benchmark's backlog.
TRUNCATE jobqueue_job CASCADE;
INSERT INTO jobqueue_job (id, queue, state, payload, attempts, priority, run_at, created_at)
SELECT gen_random_uuid()::text, 'q', 'PENDING', '{"n":' || g || '}', 0, 0,
       now() - interval '1 hour' + g * interval '1 ms', now()
FROM generate_series(1, 400000) g;
VACUUM ANALYZE jobqueue_job;
