/** A file read as text, or why it cannot be: larger than its limit, or not UTF-8. */
export type TextFileRead = { text: string } | { problem: 'tooLarge' | 'notUtf8' };

/**
 * Reads a file the person chose as strict UTF-8 (a file in another encoding is refused here,
 * before any upload), refusing one over `maxBytes` without reading it.
 */
export async function readTextFile(file: File, maxBytes: number): Promise<TextFileRead> {
  if (file.size > maxBytes) return { problem: 'tooLarge' };
  const bytes = await new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsArrayBuffer(file);
  });
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { problem: 'notUtf8' };
  }
}
