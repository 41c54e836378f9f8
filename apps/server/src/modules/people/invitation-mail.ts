import type { MailMessage } from '../../jobs/mailer.ts';

/** The mail that carries an invitation link. */
export function invitationMail(input: {
  to: string;
  name: string;
  by: string;
  organization: string;
  link: string;
}): MailMessage {
  return {
    to: input.to,
    subject: `You are invited to ${input.organization} on Signpost`,
    text: [
      `Hello ${input.name},`,
      '',
      `${input.by} invited you to ${input.organization} on Signpost.`,
      'Open this link within 7 days to choose your password and sign in:',
      '',
      input.link,
      '',
      'If you did not expect this invitation, you can ignore this mail.',
    ].join('\n'),
  };
}
