import type { MailConfig } from '../config.ts';

/** One mail to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** A mail as sent: with the Message-ID every try of its job gives it. */
export type OutgoingMail = MailMessage & { messageId?: string };

export interface Mailer {
  /** Resolves once the SMTP server accepted the mail (its answer to the message's data). */
  send(message: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * Sends mail through the configured SMTP server (nodemailer), from the configured sender.
 * nodemailer is loaded on the first call, so that a server without mail never loads it.
 */
export async function createMailer(config: MailConfig): Promise<Mailer> {
  const { default: nodemailer } = await import('nodemailer');
  // Time limits well within the mail queue's 90 s per try (jobs/queues.ts): a server that
  // stops answering ends the try, which is then tried again (nodemailer's own defaults wait
  // up to 10 minutes).
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from: config.from, ...message });
    },
    close: () => transport.close(),
  };
}
