import { ApiError, NetworkError } from './api-client';
import { clearSession, getSession } from './session-store';

/**
 * The file name the server gives in `Content-Disposition` (`filename*=UTF-8''…` first, for a
 * name beyond ASCII, then `filename="…"`), else `fallback`.
 */
export function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('Content-Disposition') ?? '';
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // Not a valid encoding: the plain name, if there is one.
    }
  }
  const plain =
    /filename\s*=\s*"([^"]+)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
  return plain || fallback;
}

/**
 * Saves an answer as a file, under the name the server gives: the browser's download of a
 * Blob through an object address (a plain link could not carry the bearer token).
 */
export async function saveResponse(response: Response, fallbackName: string): Promise<void> {
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, fallbackName);
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Let the browser start the download before the address goes.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A GET with the session's bearer token, for a file to download; a 401 ends the session,
 * another failure rejects with an ApiError carrying the server's answer.
 */
export async function getFile(url: string): Promise<Response> {
  const { token } = getSession();
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Accept: '*/*', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      cache: 'no-store',
    });
  } catch (error) {
    throw new NetworkError(error);
  }
  if (response.status === 401) {
    clearSession();
    throw new Error('Unauthorized');
  }
  if (!response.ok) {
    const text = await response.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // Not JSON: the text itself.
    }
    throw new ApiError(response.status, data);
  }
  return response;
}

/** Downloads the file at `url` (fetched with the bearer token) under the server's name. */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  await saveResponse(await getFile(url), fallbackName);
}
