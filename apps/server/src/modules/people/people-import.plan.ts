// What an import makes of each row of the file (decision 0085): a person to create, a person
// to change, one already so, or a refusal with the row's number and the reason. Pure: the
// service gives it what the database holds, and it is the same for the preview and the import.
import {
  isBlank,
  LIMITS,
  PEOPLE_IMPORT_LIMITS,
  textProblem,
  type PeopleImportPlannedRow,
  type PeopleImportRefusal,
  type PersonRole,
} from '@signpost/contract';
import type { ImportRow } from './people-import.parse.ts';
import type { ImportedPersonRecord } from './people-import.repository.ts';

/** The console's words for an address someone has (people.service.ts). */
export const EMAIL_TAKEN = 'Someone already has this e-mail address.';
const LAST_ADMIN =
  'The organization needs at least one active administrator: this row would demote the last one.';
/** What the contract's e-mail schema accepts (admin-people.ts). */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface PlannedCreate {
  row: number;
  name: string;
  email: string;
  role: PersonRole;
  teams: { id: string; name: string }[];
}

export interface PlannedChange {
  row: number;
  person: ImportedPersonRecord;
  name: string;
  role: PersonRole;
  /** Teams the person is not in by hand yet. */
  teams: { id: string; name: string }[];
  changes: ('name' | 'role' | 'teams')[];
}

export interface ImportPlan {
  creates: PlannedCreate[];
  changes: PlannedChange[];
  unchanged: number;
  refused: PeopleImportRefusal[];
  /** The first rows that are not refused, in file order. */
  rows: PeopleImportPlannedRow[];
  /** Whether the file makes administrators or changes anyone's role. */
  changesRoles: boolean;
}

export interface PlanContext {
  organizationId: string;
  /** Everyone the file names, of any organization. */
  existing: ImportedPersonRecord[];
  teams: { id: string; name: string }[];
  /** The organization's active administrators now. */
  activeAdmins: number;
}

/** The teams a cell names: separated by `;` or `|`, blanks left out, each once. */
export function teamNamesOf(cell: string | null): string[] {
  if (!cell) return [];
  const seen = new Set<string>();
  const names: string[] = [];
  for (const part of cell.split(/[;|]/)) {
    const name = part.trim();
    if (name === '' || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

/** Why a name cannot be a person's, as the console's create and invite refuse it, or null. */
function nameProblem(name: string): string | null {
  if (name === '') return 'The name is missing.';
  const problem = textProblem(name);
  if (problem) return `The name ${problem}.`;
  if (isBlank(name)) return 'The name cannot be blank.';
  if ([...name].length > LIMITS.name) return `The name is longer than ${LIMITS.name} characters.`;
  return null;
}

function emailProblem(email: string): string | null {
  if (email === '') return 'The e-mail address is missing.';
  if (email.length > LIMITS.email || email.length < 3 || !EMAIL.test(email)) {
    return 'This is not an e-mail address.';
  }
  const problem = textProblem(email);
  return problem ? `The e-mail address ${problem}.` : null;
}

function roleOf(cell: string | null): PersonRole | null | 'invalid' {
  if (cell === null || cell === '') return null;
  const role = cell.toLowerCase();
  return role === 'member' || role === 'admin' ? role : 'invalid';
}

/** Plans the import of the file's rows into the organization. */
export function planImport(rows: ImportRow[], context: PlanContext): ImportPlan {
  const byEmail = new Map(context.existing.map((p) => [p.email.toLowerCase(), p]));
  const teamsByName = new Map(context.teams.map((t) => [t.name.toLowerCase(), t]));
  const firstRowOf = new Map<string, number>();
  const refused: PeopleImportRefusal[] = [];
  const creates: PlannedCreate[] = [];
  const changes: PlannedChange[] = [];
  const planned: PeopleImportPlannedRow[] = [];
  let unchanged = 0;
  let adminsLeft = context.activeAdmins;

  for (const row of rows) {
    const refuse = (reason: string) => refused.push({ row: row.row, email: row.email, reason });
    if (row.cells !== row.columns) {
      refuse(`The row has ${row.cells} cells where the header has ${row.columns}.`);
      continue;
    }
    const email = row.email;
    const problem = emailProblem(email) ?? nameProblem(row.name);
    if (problem) {
      refuse(problem);
      continue;
    }
    const key = email.toLowerCase();
    const earlier = firstRowOf.get(key);
    if (earlier !== undefined) {
      refuse(`The e-mail address is also on row ${earlier}.`);
      continue;
    }
    firstRowOf.set(key, row.row);
    const role = roleOf(row.role);
    if (role === 'invalid') {
      refuse(`The role "${row.role}" is neither member nor admin.`);
      continue;
    }
    const names = teamNamesOf(row.teams);
    const unknown = names.find((name) => !teamsByName.has(name.toLowerCase()));
    if (unknown !== undefined) {
      refuse(`No team is named "${unknown}": create it in the Teams tab first.`);
      continue;
    }
    const teams = names.map((name) => teamsByName.get(name.toLowerCase())!);
    const person = byEmail.get(key);
    if (!person) {
      const made = { row: row.row, name: row.name, email, role: role ?? 'member', teams };
      creates.push(made);
      planned.push({
        row: row.row,
        action: 'create',
        name: made.name,
        email,
        role: made.role,
        teamsAdded: teams.map((t) => t.name),
        changes: [],
      });
      continue;
    }
    if (person.organizationId !== context.organizationId) {
      refuse(EMAIL_TAKEN);
      continue;
    }
    const newRole = role ?? person.role;
    const inTeams = new Set(person.consoleTeamIds);
    const joining = teams.filter((t) => !inTeams.has(t.id));
    if (joining.length > 0 && person.status === 'disabled') {
      refuse('This person is disabled: enable them before adding them to teams.');
      continue;
    }
    const what: PlannedChange['changes'] = [];
    if (row.name !== person.name) what.push('name');
    if (newRole !== person.role) what.push('role');
    if (joining.length > 0) what.push('teams');
    if (person.role === 'admin' && newRole === 'member' && person.status === 'active') {
      if (adminsLeft <= 1) {
        refuse(LAST_ADMIN);
        continue;
      }
      adminsLeft -= 1;
    }
    planned.push({
      row: row.row,
      action: what.length > 0 ? 'change' : 'unchanged',
      name: row.name,
      email: person.email,
      role: newRole,
      teamsAdded: joining.map((t) => t.name),
      changes: what,
    });
    if (what.length === 0) {
      unchanged += 1;
      continue;
    }
    changes.push({
      row: row.row,
      person,
      name: row.name,
      role: newRole,
      teams: joining,
      changes: what,
    });
  }

  return {
    creates,
    changes,
    unchanged,
    refused,
    rows: planned.slice(0, PEOPLE_IMPORT_LIMITS.previewRows),
    changesRoles:
      creates.some((c) => c.role === 'admin') || changes.some((c) => c.changes.includes('role')),
  };
}
