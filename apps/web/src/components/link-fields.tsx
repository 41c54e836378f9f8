import type { CreateLinkBody } from '@signpost/contract';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerMessage } from '../lib/server-message';
import { FieldMessage, invalidFieldProps, messageFor, useFocusField } from './field-message';
import '../lib/panel-texts';

/** A link being typed: the contract's link body, every field present while editing. */
export type LinkDraft = Required<CreateLinkBody>;

export type LinkField = keyof LinkDraft;

export const EMPTY_LINK_DRAFT: LinkDraft = { url: '', name: '', description: '' };

/** The labels of the link fields, by the name the server gives them (`body.url`). */
export function linkFieldLabels(t: TFunction): Record<LinkField, string> {
  return {
    url: t('add.linkAddress'),
    name: t('add.linkName'),
    description: t('add.linkDescription'),
  };
}

/**
 * The three fields of a link (spec §2: link address, link name, link description), sent as
 * typed. Shared by the add panel and the suggestion form. A server's message about one of
 * them (`problem`) shows under it, and focus moves there.
 */
export function LinkFields({
  value,
  onChange,
  problem,
}: {
  value: LinkDraft;
  onChange: (next: LinkDraft) => void;
  problem?: ServerMessage<LinkField> | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const fieldId = (field: LinkField) => `${id}-${field}`;
  useFocusField(problem, fieldId);
  const url = messageFor(problem, 'url');
  const name = messageFor(problem, 'name');
  const description = messageFor(problem, 'description');
  return (
    <>
      <label className="field">
        <span>{t('add.linkAddress')}</span>
        <input
          id={fieldId('url')}
          type="text"
          inputMode="url"
          autoComplete="url"
          value={value.url}
          onChange={(event) => onChange({ ...value, url: event.target.value })}
          {...invalidFieldProps(fieldId('url'), url)}
          // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the form replaces a step of an open panel: typing goes on here
          autoFocus
        />
      </label>
      <FieldMessage fieldId={fieldId('url')} message={url} />
      <label className="field">
        <span>{t('add.linkName')}</span>
        <input
          id={fieldId('name')}
          type="text"
          value={value.name}
          onChange={(event) => onChange({ ...value, name: event.target.value })}
          {...invalidFieldProps(fieldId('name'), name)}
        />
      </label>
      <FieldMessage fieldId={fieldId('name')} message={name} />
      <label className="field">
        <span>{t('add.linkDescription')}</span>
        <textarea
          id={fieldId('description')}
          rows={2}
          value={value.description}
          onChange={(event) => onChange({ ...value, description: event.target.value })}
          {...invalidFieldProps(fieldId('description'), description)}
        />
      </label>
      <FieldMessage fieldId={fieldId('description')} message={description} />
    </>
  );
}
