import type { CreateLinkBody } from '@signpost/contract';
import { useTranslation } from 'react-i18next';

/** A link being typed: the contract's link body, every field present while editing. */
export type LinkDraft = Required<CreateLinkBody>;

export const EMPTY_LINK_DRAFT: LinkDraft = { url: '', name: '', description: '' };

/**
 * The three fields of a link (spec §2: link address, link name, link description), sent as
 * typed. Shared by the add panel and the suggestion form.
 */
export function LinkFields({
  value,
  onChange,
}: {
  value: LinkDraft;
  onChange: (next: LinkDraft) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <label className="field">
        <span>{t('add.linkAddress')}</span>
        <input
          type="text"
          inputMode="url"
          autoComplete="url"
          value={value.url}
          onChange={(event) => onChange({ ...value, url: event.target.value })}
          // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the form replaces a step of an open panel: typing goes on here
          autoFocus
        />
      </label>
      <label className="field">
        <span>{t('add.linkName')}</span>
        <input
          type="text"
          value={value.name}
          onChange={(event) => onChange({ ...value, name: event.target.value })}
        />
      </label>
      <label className="field">
        <span>{t('add.linkDescription')}</span>
        <textarea
          rows={2}
          value={value.description}
          onChange={(event) => onChange({ ...value, description: event.target.value })}
        />
      </label>
    </>
  );
}
