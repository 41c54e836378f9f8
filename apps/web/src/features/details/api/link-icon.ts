import { ICON_UPLOAD_BYTES, ICON_UPLOAD_TYPES, type LinkIconState } from '@signpost/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { consumerApi, consumerWrite } from '../../../lib/api-client';
import { useMenuMutation } from '../../../lib/menu/use-menu-mutation';
import { useSession } from '../../../lib/use-session';

/**
 * A link's icon, for whoever may change the link (decision 0068): where it stands, an
 * uploaded image, and going back to the site's icon. The server checks who may.
 */
const path = (linkId: string) => `/links/${encodeURIComponent(linkId)}/icon`;

// A file whose type the browser does not know (an .ico, on some systems) is typed by its name.
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
};

/** What the file picker offers: the types, and their usual file names. */
export const ICON_ACCEPT = [
  ...ICON_UPLOAD_TYPES,
  ...Object.keys(BY_EXTENSION).map((e) => `.${e}`),
].join(',');

/** Why a chosen file is not sent, before anything is: too large, or not an image type. */
export type IconRefusal = 'too-large' | 'wrong-type';

/** The type a chosen file is sent as, or why it is not sent at all. */
export function checkIconFile(
  file: Pick<File, 'name' | 'size' | 'type'>,
): { ok: true; type: string } | { ok: false; reason: IconRefusal } {
  const type = file.type || BY_EXTENSION[file.name.split('.').pop()?.toLowerCase() ?? ''] || '';
  if (!(ICON_UPLOAD_TYPES as readonly string[]).includes(type))
    return { ok: false, reason: 'wrong-type' };
  if (file.size > ICON_UPLOAD_BYTES) return { ok: false, reason: 'too-large' };
  return { ok: true, type };
}

export const linkIconKey = (token: string | null, linkId: string) =>
  ['link-icon', token, linkId] as const;

// While the site has not been asked yet, the state is read again now and then.
const PENDING_REREAD_MS = 10_000;

/**
 * Where a link's icon stands. `menuIcon` is the icon the menu
 * shows: when it changes (a live update, a write), the state is read again.
 */
export function useLinkIconState(linkId: string, menuIcon: string | null) {
  const { token } = useSession();
  return useQuery({
    queryKey: [...linkIconKey(token, linkId), menuIcon],
    queryFn: async () => (await consumerApi.request<LinkIconState>(path(linkId))).data,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? PENDING_REREAD_MS : false),
  });
}

export interface UploadIconVariables {
  file: Blob;
  /** The type it is sent as (checkIconFile). */
  type: string;
}

/** A write on a link's icon: the menu and the icon's state are read again after it. */
function useIconWrite<T>(linkId: string, write: (variables: T) => Promise<void>) {
  const client = useQueryClient();
  const { token } = useSession();
  return useMenuMutation(write, {
    onSuccess: () => client.invalidateQueries({ queryKey: linkIconKey(token, linkId) }),
  });
}

/** Sets the link's icon from an image: its bytes, with its type. */
export function useUploadLinkIcon(linkId: string) {
  return useIconWrite(linkId, ({ file, type }: UploadIconVariables) =>
    consumerWrite('PUT', path(linkId), file, type),
  );
}

/** Drops the uploaded icon: the site's is looked for again (the letter shows meanwhile). */
export function useRestoreSiteIcon(linkId: string) {
  return useIconWrite(linkId, () => consumerWrite('DELETE', path(linkId)));
}
