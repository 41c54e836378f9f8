import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkFields, linkFieldLabels, type LinkDraft } from '../../../components/link-fields';
import type { ShownLink } from '../../../lib/menu/menu-types';
import { serverMessage } from '../../../lib/server-message';
import { useEditItem } from '../api/edit-item';
import { EditFormFoot } from './edit-form-foot';
import '../../../lib/panel-texts';

/**
 * A link's fields, editable in place (decision 0008): address, name, description as when
 * adding it, and the app it belongs to. Only what changed is sent; the server's message
 * about a field shows under it, as in the add panel.
 */
export function LinkEditForm({ link, onDone }: { link: ShownLink; onDone: () => void }) {
  const { t } = useTranslation();
  const appId = useId();
  const [draft, setDraft] = useState<LinkDraft>({
    url: link.url,
    name: link.name,
    description: link.description,
  });
  const [appName, setAppName] = useState(link.appName ?? '');
  const edit = useEditItem();
  const problem = useMemo(() => serverMessage(edit.error, linkFieldLabels(t)), [edit.error, t]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      ...(draft.url !== link.url ? { url: draft.url } : {}),
      ...(draft.name !== link.name ? { name: draft.name } : {}),
      ...(draft.description !== link.description ? { description: draft.description } : {}),
      ...(appName.trim() !== (link.appName ?? '') ? { appName: appName.trim() || null } : {}),
    };
    if (Object.keys(body).length === 0) {
      onDone();
      return;
    }
    if (
      await edit.write({ type: 'link', id: link.id, body, name: draft.name.trim() || link.name })
    ) {
      onDone();
    }
  };

  return (
    <form className="add-form details-edit" onSubmit={(event) => void save(event)}>
      <LinkFields value={draft} onChange={setDraft} problem={problem} />
      <label className="field">
        <span>{t('details.app')}</span>
        <input
          id={appId}
          type="text"
          value={appName}
          onChange={(event) => setAppName(event.target.value)}
          aria-describedby={`${appId}-hint`}
        />
      </label>
      <p id={`${appId}-hint`} className="hint">
        {t('details.appHint')}
      </p>
      <EditFormFoot
        failed={edit.isError}
        problem={problem}
        pending={edit.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
