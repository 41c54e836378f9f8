-- What became of an invitation's mail (decision 0079): the mail queue runs after the
-- administrator's answer, so the answer can only say the mail was queued; the worker that
-- sends it writes here what the mail server said, for the person's page in the console.
--   queued    on the queue, not tried yet
--   retrying  the mail server refused it or could not be reached; it is tried again
--   sent      the mail server accepted it
--   failed    every try failed; nothing more is tried
-- NULL: no mail was queued (no mail is set up, or the queue did not take it), and the link
-- was handed to the administrator to pass on.
ALTER TABLE invitations
  ADD COLUMN mail_state text CHECK (mail_state IN ('queued', 'retrying', 'sent', 'failed')),
  ADD COLUMN mail_state_at timestamptz;
