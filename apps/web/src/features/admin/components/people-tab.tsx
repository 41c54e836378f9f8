import type { BulkPeopleBody, PersonRow, SignInFilter } from '@signpost/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useBulkPeople, usePeople, type PeopleFilters } from '../api/people';
import { consolePath, openConsoleView } from '../console-address';
import { AddToTeamDialog } from './people-add-to-team';
import { DeletePeopleDialog } from './people-delete-dialog';
import { PersonDialog, problemOf, type PersonDialogMode } from './people-dialogs';
import { PeopleImportDialog } from './people-import-dialog';
import { RemoveFromTeamDialog } from './people-remove-from-team';
import { PersonActions } from './people-row-actions';
import { PeopleTeamFilter } from './people-team-filter';

type Dialogs =
  | PersonDialogMode
  | { kind: 'delete'; people: PersonRow[] }
  | { kind: 'add-to-team'; ids: string[] }
  | { kind: 'remove-from-team'; ids: string[] }
  | { kind: 'import' }
  | null;

function lastSignIn(value: string | null, never: string) {
  return value ? new Date(value).toLocaleString() : never;
}

/** The console's people tab: searched, filtered and paged on the server, with bulk actions. */
export function PeopleTab() {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [status, setStatus] = useState('');
  const [signIn, setSignIn] = useState('');
  const [team, setTeam] = useState('');
  const q = useDebouncedValue(search.trim(), 250);
  const filters: PeopleFilters = {
    q: q || undefined,
    role: (role || undefined) as PeopleFilters['role'],
    status: (status || undefined) as PeopleFilters['status'],
    signIn: (signIn || undefined) as SignInFilter | undefined,
    team: team || undefined,
  };
  const list = usePeople(filters);
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<Dialogs>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const bulk = useBulkPeople();
  const chosen = rows.filter((row) => selected.has(row.id));

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const runBulk = (body: Omit<BulkPeopleBody, 'ids'>) =>
    bulk.mutate(
      { ...body, ids: [...selected] },
      {
        onSuccess: (result) => {
          setNotice(t('people.bulk.result', result));
          setSelected(new Set());
        },
        onError: (error) => setNotice(problemOf(error)),
      },
    );

  const select = (
    label: string,
    value: string,
    set: (v: string) => void,
    options: [string, string][],
  ) => (
    <label className="field people-filter">
      <span className="field__label">{label}</span>
      <select value={value} onChange={(e) => set(e.target.value)}>
        <option value="">{t('people.any')}</option>
        {options.map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="people-tab">
      <h2 className="admin-tab__title">{t('people.title')}</h2>
      <div className="people-toolbar">
        <label className="field people-search">
          <span className="field__label">{t('people.search')}</span>
          <input
            type="search"
            placeholder={t('people.searchPlaceholder')}
            value={search}
            maxLength={200}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        {select(t('people.role'), role, setRole, [
          ['member', t('people.roles.member')],
          ['admin', t('people.roles.admin')],
        ])}
        {select(t('people.status'), status, setStatus, [
          ['active', t('people.statuses.active')],
          ['disabled', t('people.statuses.disabled')],
          ['invited', t('people.statuses.invited')],
        ])}
        <PeopleTeamFilter value={team} onChange={setTeam} />
        {select(t('people.signIn'), signIn, setSignIn, [
          ['password', t('people.signIns.password')],
          ['sso', t('people.signIns.sso')],
          ['never', t('people.signIns.never')],
        ])}
        <button
          type="button"
          className="button button--primary"
          onClick={() => setDialog({ kind: 'invite' })}
        >
          {t('people.invite')}
        </button>
        <button type="button" className="button" onClick={() => setDialog({ kind: 'create' })}>
          {t('people.create')}
        </button>
        <button type="button" className="button" onClick={() => setDialog({ kind: 'import' })}>
          {t('people.import.open')}
        </button>
      </div>

      <div role="status" className="people-notice">
        {notice}
      </div>

      {selected.size > 0 ? (
        <div
          className="people-bulk"
          role="toolbar"
          aria-label={t('people.selected', { count: selected.size })}
        >
          <span>{t('people.selected', { count: selected.size })}</span>
          <button type="button" className="button" onClick={() => runBulk({ action: 'disable' })}>
            {t('people.bulk.disable')}
          </button>
          <button type="button" className="button" onClick={() => runBulk({ action: 'enable' })}>
            {t('people.bulk.enable')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => runBulk({ action: 'role', role: 'admin' })}
          >
            {t('people.bulk.admin')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => runBulk({ action: 'role', role: 'member' })}
          >
            {t('people.bulk.member')}
          </button>
          <button type="button" className="button" onClick={() => runBulk({ action: 'sign-out' })}>
            {t('people.bulk.signOut')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => setDialog({ kind: 'add-to-team', ids: [...selected] })}
          >
            {t('people.bulk.addToTeam')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => setDialog({ kind: 'remove-from-team', ids: [...selected] })}
          >
            {t('people.bulk.removeFromTeam')}
          </button>
          <button
            type="button"
            className="button button--danger"
            onClick={() => setDialog({ kind: 'delete', people: chosen })}
          >
            {t('people.bulk.delete')}
          </button>
        </div>
      ) : null}

      {list.isError ? <p role="alert">{problemOf(list.error) ?? t('console.loadFailed')}</p> : null}
      {list.isPending ? <p className="hint">{t('console.loading')}</p> : null}
      {list.isSuccess && rows.length === 0 ? <p>{t('people.empty')}</p> : null}
      {rows.length > 0 ? (
        <table className="people-table">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t('people.columns.select', { name: '' })}</span>
              </th>
              <th scope="col">{t('people.columns.name')}</th>
              <th scope="col">{t('people.columns.role')}</th>
              <th scope="col">{t('people.columns.status')}</th>
              <th scope="col">{t('people.columns.teams')}</th>
              <th scope="col">{t('people.columns.lastSignIn')}</th>
              <th scope="col">{t('people.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td className="people-table__select">
                  <input
                    type="checkbox"
                    aria-label={t('people.columns.select', { name: row.name })}
                    checked={selected.has(row.id)}
                    onChange={() => toggle(row.id)}
                  />
                </td>
                <td className="people-table__person">
                  <a
                    className="people-table__name"
                    href={consolePath({ section: 'people', id: row.id })}
                    onClick={(event) => {
                      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
                        return;
                      event.preventDefault();
                      openConsoleView({ section: 'people', id: row.id });
                    }}
                  >
                    {row.name}
                  </a>
                  <span className="people-table__email">{row.email}</span>
                </td>
                <td data-label={t('people.columns.role')}>{t(`people.roles.${row.role}`)}</td>
                <td data-label={t('people.columns.status')}>
                  {t(`people.statuses.${row.status}`)}
                </td>
                <td data-label={t('people.columns.teams')}>
                  {row.teamCount === 0
                    ? t('people.noTeams')
                    : row.teamCount > row.teams.length
                      ? t('people.teamsMore', {
                          names: row.teams.join(', '),
                          count: row.teamCount - row.teams.length,
                        })
                      : row.teams.join(', ')}
                </td>
                <td data-label={t('people.columns.lastSignIn')}>
                  {lastSignIn(row.lastSignInAt, t('people.never'))}
                </td>
                <td className="people-table__actions">
                  <PersonActions
                    person={row}
                    onEdit={() => setDialog({ kind: 'edit', person: row })}
                    onDelete={() => setDialog({ kind: 'delete', people: [row] })}
                    onNotice={setNotice}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.hasNextPage ? (
        <button
          type="button"
          className="button"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {t('people.loadMore')}
        </button>
      ) : null}

      {dialog?.kind === 'import' ? (
        <PeopleImportDialog onClose={() => setDialog(null)} onDone={setNotice} />
      ) : dialog?.kind === 'add-to-team' ? (
        <AddToTeamDialog
          ids={dialog.ids}
          onClose={() => setDialog(null)}
          onDone={(message) => {
            setNotice(message);
            setSelected(new Set());
          }}
        />
      ) : dialog?.kind === 'remove-from-team' ? (
        <RemoveFromTeamDialog
          ids={dialog.ids}
          onClose={() => setDialog(null)}
          onDone={(message, all) => {
            setNotice(message);
            // What was not removed stays chosen, to try again.
            if (all) setSelected(new Set());
          }}
        />
      ) : dialog?.kind === 'delete' ? (
        <DeletePeopleDialog
          people={dialog.people}
          onClose={() => {
            setDialog(null);
            setSelected(new Set());
          }}
        />
      ) : dialog ? (
        <PersonDialog mode={dialog} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}
