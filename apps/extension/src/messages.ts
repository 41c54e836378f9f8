import { PortalError } from './portal-client';
import { texts } from './texts';

/** The fields of a link, as the server names them (`body.url`) and as the popup labels them. */
export type LinkField = 'url' | 'name' | 'description';

const LABELS: Record<LinkField, string> = {
  url: texts.linkAddress,
  name: texts.linkName,
  description: texts.linkDescription,
};

/** What a failure says, and the field it is about when it names one. */
export interface Message {
  text: string;
  field: LinkField | null;
  /** The token no longer works: the popup asks for a new one. */
  signIn: boolean;
}

// `body.url must …`, `body/url must …`: the field, then the rest (as the portal reads it).
const FIELD_PATH = /^body[./]([A-Za-z]+)(?:[./][^\s]*)?(?=\s)(.*)$/s;
const PHRASES: [RegExp, string][] = [
  [/ must NOT have fewer than 1 characters?\b/, ' must not be empty'],
  [/ must NOT have more than (\d+) characters\b/, ' must be at most $1 characters long'],
  [/ NOT /g, ' not '],
];

/**
 * The server's message in the popup's words: "body.url must be an http, https or mailto
 * address" becomes "Link address must be an http, https or mailto address.", under that
 * field (as the portal's forms do, decision 0055).
 */
export function readable(message: string): { text: string; field: LinkField | null } {
  const everyday = (text: string) =>
    PHRASES.reduce((result, [pattern, words]) => result.replace(pattern, words), text);
  const match = FIELD_PATH.exec(message.trim());
  const name = match?.[1] as LinkField | undefined;
  if (!match || !name || !(name in LABELS)) return { text: everyday(message.trim()), field: null };
  const sentence = `${LABELS[name]}${everyday(match[2] ?? '')}`.trim();
  return { text: /[.!?]$/.test(sentence) ? sentence : `${sentence}.`, field: name };
}

/**
 * What the popup says about a failed call. `signingIn`: the call checked a token just
 * pasted, whose refusal is about what was pasted; later, a refused token is one that was
 * revoked or expired since.
 */
export function failureMessage(error: unknown, origin: string, signingIn = false): Message {
  const kind = error instanceof PortalError ? error.kind : 'network';
  const plain = (text: string, signIn = false): Message => ({ text, field: null, signIn });
  switch (kind) {
    case 'unauthorized':
      return plain(signingIn ? texts.tokenInvalid : texts.tokenRevoked, true);
    case 'expired':
      return plain(texts.tokenExpired, true);
    case 'refused': {
      const server = error instanceof PortalError ? error.serverMessage : null;
      return server ? { ...readable(server), signIn: false } : plain(texts.failed);
    }
    case 'not-found':
      return plain(texts.collectionGone);
    case 'not-a-portal':
      return plain(texts.notAPortal(origin));
    case 'unavailable':
      return plain(texts.failed);
    case 'network':
      return plain(texts.unreachable(origin));
  }
}
