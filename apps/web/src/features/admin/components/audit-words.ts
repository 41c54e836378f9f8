import type { AuditEntry } from '@signpost/contract';
import type { TFunction } from 'i18next';
import type { AdminTexts } from '../../../lib/locales/admin';

type ActionKey = keyof AdminTexts['audit']['actions'];
type GroupKey = keyof AdminTexts['audit']['groups'];

/** The text key of a group prefix (`person.` → `person`). */
export const groupKey = (group: string) => group.replace(/\.$/, '') as GroupKey;

/** An action in words; an action this build does not know shows its name. */
export function actionWords(t: TFunction<'admin'>, action: string): string {
  const key = action.replace('.', '_') as ActionKey;
  return t(`audit.actions.${key}`, { defaultValue: action });
}

/** Who did it: name and e-mail as they were; unknown when nobody is known. */
export function actorLabel(entry: AuditEntry): string | null {
  const actor = entry.actor;
  if (!actor) return null;
  if (actor.name && actor.email) return `${actor.name} <${actor.email}>`;
  return actor.name ?? actor.email;
}
