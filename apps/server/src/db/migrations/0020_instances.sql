-- The instances of a deployment on one database, and what each holds (decision 0082): a
-- row per running server process, seen again every few seconds; the jobs of the queue it is
-- running; the live update streams open on it. When an instance stops being seen, another
-- one fails its jobs at once (the queue retries them, a round starts again), gives back the
-- links its rounds held, and forgets its streams (ON DELETE CASCADE), instead of waiting for
-- leases and the queue's own expiry.
CREATE TABLE instances (
  id text PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE instance_jobs (
  job_id text PRIMARY KEY,
  queue text NOT NULL,
  instance_id text NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX instance_jobs_instance_idx ON instance_jobs (instance_id);

-- One row per open stream, counted across every instance: the caps per person and per
-- session hold for the deployment, not for one process.
CREATE TABLE live_streams (
  id text PRIMARY KEY,
  instance_id text NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  credential text NOT NULL,
  opened_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX live_streams_user_idx ON live_streams (user_id);
CREATE INDEX live_streams_instance_idx ON live_streams (instance_id);

-- Which instance's round holds a link (no foreign key: an instance's row goes before its
-- links are given back, in the same transaction).
ALTER TABLE link_icons ADD COLUMN taken_by text;
ALTER TABLE link_checks ADD COLUMN taken_by text;

-- A mail the SMTP server accepted, by the job that sent it: a job tried again after its
-- instance died, or after the acceptance but before the job was marked done, is not sent a
-- second time. Kept a week.
CREATE TABLE mail_accepted (
  job_id text PRIMARY KEY,
  accepted_at timestamptz NOT NULL DEFAULT now()
);
