/**
 * Whether what the server sends people would carry an address only its own computer knows:
 * invitation links built on PUBLIC_URL (`http://localhost:3000` when it is unset), and the
 * sender of its mail (`signpost@localhost`, from the same address, unless MAIL_FROM says
 * otherwise). The start banner prints it, and the console's Organization tab shows it.
 */

/** A host that names this computer only. */
export function isLocalHost(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127(?:\.\d{1,3}){3}$/.test(name) ||
    name === '0.0.0.0' ||
    name === '::1' ||
    name === '::'
  );
}

/** The domain of a sender: `Signpost <signpost@localhost>` → `localhost`. */
function senderDomain(from: string): string {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1).trim();
}

/** What sends people an address, as the configuration has it. */
export interface AddressFacts {
  /** PUBLIC_URL, or the address the server made up without it. */
  publicUrl: string;
  /** The sender of mail, or null when no mail is sent. */
  mailFrom: string | null;
}

/**
 * The warnings about local addresses, one sentence each, none when people would get
 * addresses they can use.
 */
export function localAddressWarnings({ publicUrl, mailFrom }: AddressFacts): string[] {
  const warnings: string[] = [];
  if (isLocalHost(new URL(publicUrl).hostname)) {
    warnings.push(
      `Invitation links point at ${publicUrl}, which only this computer can open: set PUBLIC_URL to the address people use, such as https://links.example.com.`,
    );
  }
  if (mailFrom !== null && isLocalHost(senderDomain(mailFrom))) {
    warnings.push(
      `Mail is sent from ${mailFrom}, an address at this computer that other mail servers refuse or mark as spam: set MAIL_FROM, or PUBLIC_URL.`,
    );
  }
  return warnings;
}
