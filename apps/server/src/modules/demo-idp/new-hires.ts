import { timingSafeEqual } from 'node:crypto';
import { DEMO_PASSWORD } from '../../db/seed/demo.ts';

export interface NewHire {
  /** The subject the demo provider gives them; stable, so a second sign-in finds them. */
  sub: string;
  email: string;
  name: string;
  /**
   * The groups the provider says they are in (its `groups` claim), as an identity system
   * would name a department: the console maps them to teams (decision 0084).
   */
  groups: string[];
}

/** The demo provider's department groups, one per new hire in turn. */
export const DEPARTMENTS = ['dept-engineering', 'dept-design', 'dept-sales', 'dept-it'] as const;

/**
 * People the demo provider knows but Signpost does not yet, as on someone's first day: their
 * first single sign-on creates them in Signpost (just in time), the next ones find them.
 */
export const NEW_HIRES: readonly NewHire[] = [
  'Noor Haddad',
  'Mateo Silva',
  'Ingrid Berg',
  'Kofi Mensah',
  'Yuki Sato',
  'Lena Vogel',
  'Ravi Iyer',
  'Chloe Martin',
  'Tomás Ruiz',
  'Amara Obi',
].map((name, i) => ({
  sub: `new-hire-${i + 1}`,
  email: `newhire${i + 1}@example.com`,
  name,
  groups: [DEPARTMENTS[i % DEPARTMENTS.length]!, 'all-staff'],
}));

export const findNewHireBySub = (sub: string) => NEW_HIRES.find((h) => h.sub === sub) ?? null;

/** The new hire with this e-mail and the demo password, or null. */
export function checkNewHire(email: string, password: string): NewHire | null {
  const hire = NEW_HIRES.find((h) => h.email === email.trim().toLowerCase());
  const given = Buffer.from(password);
  const expected = Buffer.from(DEMO_PASSWORD);
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  return hire && same ? hire : null;
}
