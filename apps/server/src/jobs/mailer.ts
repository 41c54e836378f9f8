import type { MailConfig } from '../config.ts';

/** One mail to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Sends mail through the configured SMTP server (nodemailer), from the configured sender.
 * nodemailer is loaded on the first call, so that a server without mail never loads it.
 */
export async function createMailer(config: MailConfig): Promise<Mailer> {
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: config.from, ...message });
    },
    close: () => transport.close(),
  };
}
