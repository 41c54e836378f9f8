/**
 * Every queue of the job queue, with how it takes jobs (decision 0082): the one list that
 * `admin migrate` creates before any instance starts, that each instance checks under the
 * startup lock, and that the modules' jobs name. A queue's `expireInSeconds` is its jobs'
 * limit: the round's whole budget, or a mail's sending time; pg-boss fails a job still
 * active after it (a backstop: a gone instance's jobs are failed sooner, by the instance
 * registry).
 */
export interface QueueSpec {
  name: string;
  /**
   * `stately`: at most one job waiting and one running, across every instance — a round that
   * must never run twice at once, and asks for another collapse into one.
   */
  policy: 'standard' | 'stately';
  /** How long a job may run before pg-boss counts it failed. */
  expireInSeconds: number;
  /**
   * How long a job takes at most when all is well. One running longer is late: the alert on
   * late jobs (docs/grafana/signpost-alerts.yaml, held to these figures by a test) fires.
   * Below `expireInSeconds`, so that it fires before pg-boss gives up on the job.
   */
  budgetSeconds: number;
  retryLimit: number;
  /** The first wait before a failed job is tried again, doubling (with jitter) each time. */
  retryDelaySeconds: number;
  retryBackoff: boolean;
}

/**
 * Outgoing mail. Tried 8 times, 5 s after the first failure and doubling: a mail server down
 * for up to about 20 minutes loses nothing, and a mail held by an instance that died is sent
 * again within seconds of another instance noticing.
 */
export const SEND_MAIL_QUEUE: QueueSpec = {
  name: 'send-mail',
  policy: 'standard',
  // The SMTP client's own time limits (jobs/mailer.ts) end every try well before this.
  expireInSeconds: 90,
  // One SMTP exchange: seconds when the server answers.
  budgetSeconds: 45,
  retryLimit: 8,
  retryDelaySeconds: 5,
  retryBackoff: true,
};

/**
 * Icon rounds (decision 0068): a 45-second budget, and time to write down what it cut; failed
 * by pg-boss only well past it (a round that hangs).
 */
export const ICON_ROUNDS_QUEUE: QueueSpec = {
  name: 'link-icons',
  policy: 'stately',
  expireInSeconds: 90,
  // The round stops taking links and cuts its lookups at 45 s; writing down what it cut.
  budgetSeconds: 50,
  retryLimit: 0,
  retryDelaySeconds: 0,
  retryBackoff: false,
};

/** The daily cleanup of icons no link uses. */
export const ICON_CLEANUP_QUEUE: QueueSpec = {
  name: 'icons-cleanup',
  policy: 'stately',
  expireInSeconds: 15 * 60,
  // One DELETE: seconds. Ten minutes leaves five before the job expires.
  budgetSeconds: 10 * 60,
  retryLimit: 0,
  retryDelaySeconds: 0,
  retryBackoff: false,
};

/**
 * Link check rounds (decision 0069): a four-minute budget, and a minute for the checks under
 * way to finish.
 */
export const LINK_CHECKS_QUEUE: QueueSpec = {
  name: 'link-checks',
  policy: 'stately',
  expireInSeconds: 5 * 60,
  // Four minutes of taking links, and the checks under way then.
  budgetSeconds: 4 * 60 + 30,
  retryLimit: 0,
  retryDelaySeconds: 0,
  retryBackoff: false,
};

export const QUEUES: readonly QueueSpec[] = [
  SEND_MAIL_QUEUE,
  ICON_ROUNDS_QUEUE,
  ICON_CLEANUP_QUEUE,
  LINK_CHECKS_QUEUE,
];

/** pg-boss's options for a queue. */
export const queueOptions = (spec: QueueSpec) => ({
  name: spec.name,
  policy: spec.policy,
  expireInSeconds: spec.expireInSeconds,
  retryLimit: spec.retryLimit,
  retryDelay: spec.retryDelaySeconds,
  retryBackoff: spec.retryBackoff,
});
