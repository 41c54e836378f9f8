import { ICON_UPLOAD_BYTES, type LinkIconState } from '@signpost/contract';
import type { TFunction } from 'i18next';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkIcon } from '../../../components/link-icon';
import { ApiError, NetworkError } from '../../../lib/api-client';
import { unicodeHost } from '../../../lib/display-text';
import type { ShownLink } from '../../../lib/menu/menu-types';
import { serverMessage } from '../../../lib/server-message';
import {
  checkIconFile,
  ICON_ACCEPT,
  useLinkIconState,
  useRestoreSiteIcon,
  useUploadLinkIcon,
  type IconRefusal,
  type UploadIconVariables,
} from '../api/link-icon';
import '../../../lib/panel-texts';

/** A chosen file as sent, with its name to show. */
type Unsent = UploadIconVariables & { name: string };

// i18next's own type of `t`: the hook's return type, spelled out, runs past the compiler's
// depth once the texts grow.
type T = TFunction;

/** The size the icon is drawn at here, in CSS pixels: twice a tile's. */
const PREVIEW_SIZE = 64;

/** Where the icon was found, by its host, in Unicode (with its punycode form beside it). */
function foundLine(t: T, foundAt: string | null) {
  let host = '';
  try {
    host = foundAt ? new URL(foundAt).hostname : '';
  } catch {
    // An address the browser cannot read is not named.
  }
  if (!foundAt || !host) return t('icon.foundOnSite');
  const unicode = unicodeHost(foundAt);
  if (!unicode) return t('icon.found', { host });
  return t('icon.foundPunycode', { ascii: unicode.ascii, unicode: unicode.unicode });
}

function stateLine(t: T, state: LinkIconState) {
  switch (state.state) {
    case 'found':
      return foundLine(t, state.foundAt);
    case 'uploaded':
      return t('icon.uploaded');
    case 'none':
      return t('icon.none');
    default:
      return t('icon.pending');
  }
}

/**
 * The icon section of a link's details, for whoever may change the link (decision 0068):
 * the icon, where it comes from, an image to upload instead, and going back to the site's.
 * A file the server would refuse for its size or type is refused here, before anything is
 * sent; a file the server refused is kept, to send again.
 */
export function LinkIconSection({ link }: { link: ShownLink }) {
  const { t } = useTranslation();
  const headingId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const uploadButton = useRef<HTMLButtonElement>(null);
  const query = useLinkIconState(link.id, link.icon);
  const upload = useUploadLinkIcon(link.id);
  const restore = useRestoreSiteIcon(link.id);
  const [message, setMessage] = useState<string | null>(null);
  // The file last sent and not taken, to send again as it is.
  const [unsent, setUnsent] = useState<Unsent | null>(null);
  const busy = upload.isPending || restore.isPending;
  const state = query.data;

  const failure = (error: unknown) => serverMessage(error)?.text ?? t('write.failed');
  const refusal = (reason: IconRefusal, file: Pick<File, 'name' | 'size'>) =>
    reason === 'too-large'
      ? t('icon.tooLarge', {
          name: file.name,
          size: Math.ceil(file.size / 1024),
          max: ICON_UPLOAD_BYTES / 1024,
        })
      : t('icon.wrongType', { name: file.name });

  const send = async (variables: Unsent) => {
    if (busy) return;
    setMessage(null);
    try {
      await upload.mutateAsync(variables);
      setUnsent(null);
      // The button sent from may be gone (Send again): the focus stays in the section.
      uploadButton.current?.focus();
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      const file = { name: variables.name, size: variables.file.size };
      // A file refused for what it is is not offered again; one the network lost is.
      if (status === 413) setMessage(refusal('too-large', file));
      else if (status === 415) setMessage(refusal('wrong-type', file));
      else setMessage(failure(error));
      setUnsent([400, 413, 415].includes(status) ? null : variables);
    }
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Emptied, so that choosing the same file again is a change too.
    event.target.value = '';
    if (!file) return;
    const checked = checkIconFile(file);
    // Refused here, nothing is sent and nothing changes: a file kept to send again stays.
    if (!checked.ok) setMessage(refusal(checked.reason, file));
    else void send({ file, type: checked.type, name: file.name });
  };

  const backToSiteIcon = async () => {
    if (busy) return;
    setMessage(null);
    try {
      await restore.mutateAsync(undefined);
      // Its button is gone with the uploaded icon.
      uploadButton.current?.focus();
    } catch (error) {
      setMessage(failure(error));
    }
  };

  let line: string;
  if (state) line = stateLine(t, state);
  else if (query.isError)
    line = t(query.error instanceof NetworkError ? 'icon.loadOffline' : 'icon.loadFailed');
  else line = t('icon.loading');
  // The icon just read, else the menu's.
  const icon = state ? state.icon : link.icon;

  return (
    <section className="panel-section icon-section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('icon.title')}</h3>
      <div className="icon-section__current">
        <LinkIcon key={icon ?? ''} name={link.name} icon={icon} size={PREVIEW_SIZE} />
        <p className="icon-section__state" role="status">
          {line}
        </p>
      </div>
      <input
        ref={input}
        type="file"
        accept={ICON_ACCEPT}
        aria-label={t('icon.file')}
        hidden
        onChange={choose}
      />
      <div className="details__actions">
        <button
          ref={uploadButton}
          type="button"
          className="button"
          aria-describedby={hintId}
          aria-disabled={busy || undefined}
          onClick={() => {
            if (!busy) input.current?.click();
          }}
        >
          {upload.isPending ? t('icon.uploading') : t('icon.upload')}
        </button>
        {unsent ? (
          <button
            type="button"
            className="button"
            aria-disabled={busy || undefined}
            onClick={() => void send(unsent)}
          >
            {t('icon.retry', { name: unsent.name })}
          </button>
        ) : null}
        {state?.state === 'uploaded' ? (
          <button
            type="button"
            className="button"
            aria-disabled={busy || undefined}
            onClick={() => void backToSiteIcon()}
          >
            {t('icon.useSiteIcon')}
          </button>
        ) : null}
      </div>
      <p className="hint" id={hintId}>
        {t('icon.hint', { max: ICON_UPLOAD_BYTES / 1024 })}
      </p>
      {message ? (
        <p className="form-error" role="alert">
          {message}
        </p>
      ) : null}
    </section>
  );
}
