// What the live module's parts share: the credential of a stream, and scope keys.

/** The scope keys of `signpost_menu_scopes`' answer ("scope=version scope=version …"). */
export function scopeKeys(versions: string | null): string[] {
  if (!versions) return [];
  const keys: string[] = [];
  for (const pair of versions.split(' ')) {
    const end = pair.lastIndexOf('=');
    const key = end > 0 ? pair.slice(0, end) : pair;
    if (key) keys.push(key);
  }
  return keys;
}

/** A credential a stream was opened with: a sign-in session or a personal access token. */
export interface Credential {
  kind: 'session' | 'token';
  id: string;
}
