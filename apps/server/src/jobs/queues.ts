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
  expireInSeconds: number;
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
  expireInSeconds: 60,
  retryLimit: 8,
  retryDelaySeconds: 5,
  retryBackoff: true,
};

/** Icon rounds (decision 0068): a 45-second budget, and time to write down what it cut. */
export const ICON_ROUNDS_QUEUE: QueueSpec = {
  name: 'link-icons',
  policy: 'stately',
  expireInSeconds: 60,
  retryLimit: 0,
  retryDelaySeconds: 0,
  retryBackoff: false,
};

/** The daily cleanup of icons no link uses. */
export const ICON_CLEANUP_QUEUE: QueueSpec = {
  name: 'icons-cleanup',
  policy: 'stately',
  expireInSeconds: 15 * 60,
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
