/**
 * Saves text or bytes (a character card PNG, a gzipped snapshot) as a file through the browser's
 * download: a Blob behind a temporary object URL, clicked through a temporary <a download>.
 */
export function downloadFile(data: string | Uint8Array, fileName: string, mediaType: string): void {
  // A copy of the bytes: a Blob takes bytes over an ArrayBuffer, not a shared one.
  const part = typeof data === 'string' ? data : new Uint8Array(data);
  const url = URL.createObjectURL(new Blob([part], { type: mediaType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: some browsers read the URL only after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
