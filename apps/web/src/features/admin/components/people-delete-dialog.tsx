import type { PersonRow } from '@signpost/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useBulkPeople, useDeletePerson, useOffboarding, usePeople } from '../api/people';
import { problemOf } from './people-dialogs';

interface Props {
  /** One person (the preview lists their shared collections), or a selection. */
  people: PersonRow[];
  onClose: () => void;
}

function SharedCollections({ id }: { id: string }) {
  const { t } = useTranslation('admin');
  const preview = useOffboarding(id);
  if (preview.isPending) return <p className="hint">{t('people.offboarding.loading')}</p>;
  const collections = preview.data?.collections ?? [];
  if (collections.length === 0) return <p>{t('people.offboarding.none')}</p>;
  return (
    <>
      <p>{t('people.offboarding.shared')}</p>
      <ul className="people-offboarding__list">
        {collections.map((c) => (
          <li key={c.id}>
            {c.name} · {t('people.offboarding.members', { count: c.memberCount })}
          </li>
        ))}
      </ul>
    </>
  );
}

/** Deleting people: transfer their shared collections to a colleague, or delete them. */
export function DeletePeopleDialog({ people, onClose }: Props) {
  const { t } = useTranslation('admin');
  const [choice, setChoice] = useState<'transfer' | 'delete'>('transfer');
  const [search, setSearch] = useState('');
  const [heir, setHeir] = useState<string>('');
  const [problem, setProblem] = useState<string | null>(null);
  const query = useDebouncedValue(search, 250);
  const colleagues = usePeople({ q: query || undefined, status: 'active' });
  const single = useDeletePerson();
  const bulk = useBulkPeople();
  const leaving = new Set(people.map((p) => p.id));
  const candidates = (colleagues.data?.pages.flatMap((page) => page.items) ?? []).filter(
    (p) => !leaving.has(p.id),
  );
  const first = people[0];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice === 'transfer' && !heir) return setProblem(t('people.offboarding.pickColleague'));
    const offboarding =
      choice === 'transfer'
        ? { collections: 'transfer' as const, transferTo: heir }
        : { collections: 'delete' as const };
    const done = { onSuccess: onClose, onError: (error: unknown) => setProblem(problemOf(error)) };
    if (people.length === 1 && first) single.mutate({ id: first.id, choice: offboarding }, done);
    else bulk.mutate({ ids: [...leaving], action: 'delete', offboarding }, done);
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={
        people.length === 1 && first
          ? t('people.offboarding.title', { name: first.name })
          : t('people.offboarding.titleMany', { count: people.length })
      }
    >
      <form className="people-form" onSubmit={submit}>
        {people.length === 1 && first ? <SharedCollections id={first.id} /> : null}
        <fieldset className="people-offboarding__choice">
          <label>
            <input
              type="radio"
              name="collections"
              checked={choice === 'transfer'}
              onChange={() => setChoice('transfer')}
            />
            {t('people.offboarding.transfer')}
          </label>
          <label>
            <input
              type="radio"
              name="collections"
              checked={choice === 'delete'}
              onChange={() => setChoice('delete')}
            />
            {t('people.offboarding.deleteThem')}
          </label>
        </fieldset>
        {choice === 'transfer' ? (
          <div className="people-offboarding__heir">
            <label className="field">
              <span className="field__label">{t('people.offboarding.colleaguePlaceholder')}</span>
              <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            </label>
            <label className="field">
              <span className="field__label">{t('people.offboarding.colleague')}</span>
              <select value={heir} onChange={(e) => setHeir(e.target.value)}>
                <option value="">—</option>
                {candidates.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} ({p.email})
                  </option>
                ))}
              </select>
            </label>
          </div>
        ) : null}
        <p className="hint">{t('people.offboarding.warning')}</p>
        <div role="alert" className="people-form__error">
          {problem}
        </div>
        <div className="people-form__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('people.form.cancel')}
          </button>
          <button
            type="submit"
            className="button button--danger"
            disabled={single.isPending || bulk.isPending}
          >
            {t('people.offboarding.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
