import type { SsoGroupProvider, UpdateSsoGroupsBody } from '@signpost/contract';
import { SSO_GROUP_LIMITS } from '@signpost/contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FieldMessage,
  invalidFieldProps,
  messageFor,
  useFocusField,
} from '../../../components/field-message';
import { ApiError } from '../../../lib/api-client';
import { serverMessage, type ServerMessage } from '../../../lib/server-message';
import { useSaveSsoGroups, useSsoGroups } from '../api/sso-groups';
import { useTeams } from '../api/teams';
import '../../../lib/panel-texts';

type Role = 'member' | 'editor';

/** One mapping as it is edited: a row of the table. */
interface Row {
  /** Stable across edits, so that removing a row keeps the others' inputs. */
  key: number;
  group: string;
  /** '' for no team. */
  teamId: string;
  teamName: string;
  role: Role;
  admin: boolean;
}

/** The claim field, a row's group field, or the form as a whole. */
type Field = 'claim' | `group-${number}`;

const CLAIM = /^[A-Za-z0-9_:./-]+$/;

let nextKey = 1;
const rowsOf = (provider: SsoGroupProvider): Row[] =>
  provider.mappings.map((m) => ({
    key: nextKey++,
    group: m.group,
    teamId: m.teamId ?? '',
    teamName: m.teamName ?? '',
    role: m.role ?? 'member',
    admin: m.admin,
  }));

/** The PUT body: an empty claim is none, and a row without a team has no role. */
function bodyOf(claim: string, rows: Row[]): UpdateSsoGroupsBody {
  return {
    claim: claim.trim() || null,
    mappings: rows.map((row) => ({
      group: row.group.trim(),
      teamId: row.teamId || null,
      role: row.teamId ? row.role : null,
      admin: row.admin,
    })),
  };
}

/**
 * The organization tab's section on teams from a sign-in's groups (decision 0084): per single
 * sign-on provider, the claim that lists a person's groups, and which group gives which team
 * (as member or editor) or the administrator role. Saved per provider; a group may give the
 * administrator role, so the server may ask the administrator to confirm who they are first.
 */
export function SsoGroupsSection() {
  const { t } = useTranslation('admin');
  const settings = useSsoGroups();
  const titleId = useId();
  const items = settings.data?.items ?? [];
  return (
    <section className="admin-settings admin-sso-groups" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('settings.ssoGroups.title')}</h3>
      {settings.isPending ? <p className="hint">{t('console.loading')}</p> : null}
      {settings.isError ? (
        <p className="form-error">
          {t('console.loadFailed')}{' '}
          <button type="button" className="link-button" onClick={() => void settings.refetch()}>
            {t('console.retry')}
          </button>
        </p>
      ) : null}
      {settings.isSuccess && items.length === 0 ? (
        <p className="hint">{t('settings.ssoGroups.noProviders')}</p>
      ) : null}
      {items.length > 0 ? (
        <>
          <p className="hint">{t('settings.ssoGroups.intro')}</p>
          {items.map((provider) => (
            <ProviderGroups key={provider.providerId} provider={provider} />
          ))}
        </>
      ) : null}
    </section>
  );
}

/** One provider's claim and mappings, edited as a draft and saved with one PUT. */
function ProviderGroups({ provider }: { provider: SsoGroupProvider }) {
  const { t } = useTranslation('admin');
  const save = useSaveSsoGroups();
  const teams = useTeams('');
  const [claim, setClaim] = useState(provider.claim ?? '');
  const [rows, setRows] = useState<Row[]>(() => rowsOf(provider));
  const [problem, setProblem] = useState<ServerMessage<Field> | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const baseId = useId();
  const fieldId = (field: Field) => `${baseId}-${field}`;
  useFocusField(problem, fieldId);
  const loaded = teams.data?.pages.flatMap((page) => page.items) ?? [];

  const change = (key: number, patch: Partial<Row>) => {
    setNotice(null);
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  };

  /** What the form can tell before asking the server, with the field it is about. */
  function check(): ServerMessage<Field> | null {
    const wanted = claim.trim();
    if (wanted && !CLAIM.test(wanted)) {
      return { field: 'claim', text: t('settings.ssoGroups.claimInvalid') };
    }
    for (const [i, row] of rows.entries()) {
      if (!row.group.trim()) {
        return { field: `group-${i}`, text: t('settings.ssoGroups.groupRequired', { n: i + 1 }) };
      }
      if (!row.teamId && !row.admin) {
        return { field: null, text: t('settings.ssoGroups.nothingGiven', { n: i + 1 }) };
      }
    }
    if (rows.length > SSO_GROUP_LIMITS.mappings) {
      return {
        field: null,
        text: t('settings.ssoGroups.tooMany', { max: SSO_GROUP_LIMITS.mappings }),
      };
    }
    return null;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setNotice(null);
    const found = check();
    if (found) {
      setProblem(found);
      return;
    }
    try {
      // Re-authentication, when the server asks for it, happens inside the call.
      const stored = await save.mutateAsync({
        providerId: provider.providerId,
        body: bodyOf(claim, rows),
      });
      const mine = stored.items.find((item) => item.providerId === provider.providerId);
      if (mine) {
        setClaim(mine.claim ?? '');
        setRows(rowsOf(mine));
      }
      setNotice(t('settings.ssoGroups.saved', { name: provider.name }));
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) {
        setProblem({ field: null, text: t('settings.ssoGroups.notFound') });
        return;
      }
      setProblem(
        serverMessage<Field>(failure, { claim: t('settings.ssoGroups.claim') }) ?? {
          field: null,
          text: t('settings.ssoGroups.failed'),
        },
      );
    }
  }

  /** The teams a row may choose: those loaded, and the row's own whatever the page. */
  const teamOptions = (row: Row) => {
    const options = loaded.map((team) => ({ id: team.id, name: team.name }));
    if (row.teamId && !options.some((team) => team.id === row.teamId)) {
      options.unshift({ id: row.teamId, name: row.teamName || row.teamId });
    }
    return options;
  };

  const headingId = `${baseId}-heading`;
  return (
    <form
      className="sso-groups"
      aria-labelledby={headingId}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <h4 id={headingId}>{t('settings.ssoGroups.provider', { name: provider.name })}</h4>
      <div className="admin-field">
        <label htmlFor={fieldId('claim')}>{t('settings.ssoGroups.claim')}</label>
        <input
          id={fieldId('claim')}
          type="text"
          autoComplete="off"
          spellCheck={false}
          maxLength={SSO_GROUP_LIMITS.claim}
          placeholder={t('settings.ssoGroups.claimPlaceholder')}
          value={claim}
          onChange={(event) => {
            setNotice(null);
            setClaim(event.target.value);
          }}
          {...invalidFieldProps(fieldId('claim'), messageFor(problem, 'claim'))}
          aria-describedby={[
            `${baseId}-claim-hint`,
            messageFor(problem, 'claim') ? `${fieldId('claim')}-message` : null,
          ]
            .filter(Boolean)
            .join(' ')}
        />
        <p id={`${baseId}-claim-hint`} className="hint">
          {t('settings.ssoGroups.claimHint')}
        </p>
        <FieldMessage fieldId={fieldId('claim')} message={messageFor(problem, 'claim')} />
      </div>

      {rows.length === 0 ? (
        <p className="hint">{t('settings.ssoGroups.empty')}</p>
      ) : (
        <table className="people-table sso-groups__table">
          <caption className="visually-hidden">
            {t('settings.ssoGroups.mappings', { name: provider.name })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('settings.ssoGroups.group')}</th>
              <th scope="col">{t('settings.ssoGroups.team')}</th>
              <th scope="col">{t('settings.ssoGroups.role')}</th>
              <th scope="col">{t('settings.ssoGroups.admin')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('settings.ssoGroups.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => {
              const n = i + 1;
              const groupField: Field = `group-${i}`;
              return (
                <tr key={row.key}>
                  <td data-label={t('settings.ssoGroups.group')}>
                    <input
                      id={fieldId(groupField)}
                      type="text"
                      autoComplete="off"
                      spellCheck={false}
                      maxLength={SSO_GROUP_LIMITS.group}
                      aria-label={t('settings.ssoGroups.groupOf', { n })}
                      title={t('settings.ssoGroups.groupHint')}
                      value={row.group}
                      onChange={(event) => change(row.key, { group: event.target.value })}
                      {...invalidFieldProps(fieldId(groupField), messageFor(problem, groupField))}
                    />
                    <FieldMessage
                      fieldId={fieldId(groupField)}
                      message={messageFor(problem, groupField)}
                    />
                  </td>
                  <td data-label={t('settings.ssoGroups.team')}>
                    <select
                      aria-label={t('settings.ssoGroups.teamOf', { n })}
                      value={row.teamId}
                      onChange={(event) => {
                        const id = event.target.value;
                        const team = teamOptions(row).find((option) => option.id === id);
                        change(row.key, { teamId: id, teamName: team?.name ?? '' });
                      }}
                    >
                      <option value="">{t('settings.ssoGroups.noTeam')}</option>
                      {teamOptions(row).map((team) => (
                        <option key={team.id} value={team.id}>
                          {team.name}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td data-label={t('settings.ssoGroups.role')}>
                    {row.teamId ? (
                      <select
                        aria-label={t('settings.ssoGroups.roleOf', { n })}
                        value={row.role}
                        onChange={(event) => change(row.key, { role: event.target.value as Role })}
                      >
                        <option value="member">{t('settings.ssoGroups.member')}</option>
                        <option value="editor">{t('settings.ssoGroups.editor')}</option>
                      </select>
                    ) : (
                      <span aria-hidden="true">{t('settings.ssoGroups.noRole')}</span>
                    )}
                  </td>
                  <td data-label={t('settings.ssoGroups.admin')}>
                    <input
                      type="checkbox"
                      aria-label={t('settings.ssoGroups.adminOf', { n })}
                      checked={row.admin}
                      onChange={(event) => change(row.key, { admin: event.target.checked })}
                    />
                  </td>
                  <td className="people-table__actions">
                    <button
                      type="button"
                      className="button"
                      aria-label={t('settings.ssoGroups.removeOf', { n })}
                      onClick={() => {
                        setNotice(null);
                        setProblem(null);
                        setRows((current) => current.filter((other) => other.key !== row.key));
                        requestAnimationFrame(() => addRef.current?.focus());
                      }}
                    >
                      {t('settings.ssoGroups.remove')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <div className="settings-form__actions">
        <button
          ref={addRef}
          type="button"
          className="button"
          disabled={rows.length >= SSO_GROUP_LIMITS.mappings}
          onClick={() => {
            setNotice(null);
            const key = nextKey++;
            setRows((current) => [
              ...current,
              { key, group: '', teamId: '', teamName: '', role: 'member', admin: false },
            ]);
            // The new row's group is what comes next.
            const index = rows.length;
            requestAnimationFrame(() =>
              document.getElementById(fieldId(`group-${index}`))?.focus(),
            );
          }}
        >
          {t('settings.ssoGroups.add')}
        </button>
        {teams.hasNextPage ? (
          <button
            type="button"
            className="button"
            disabled={teams.isFetchingNextPage}
            onClick={() => void teams.fetchNextPage()}
          >
            {t('settings.ssoGroups.moreTeams')}
          </button>
        ) : null}
        <button
          type="submit"
          className="button button--primary"
          disabled={save.isPending}
          aria-busy={save.isPending}
        >
          {save.isPending
            ? t('settings.ssoGroups.saving')
            : t('settings.ssoGroups.save', { name: provider.name })}
        </button>
      </div>
      <p role="alert" className="form-error">
        {problem && !problem.field ? problem.text : null}
      </p>
      <p role="status" className="hint">
        {notice}
      </p>
    </form>
  );
}
