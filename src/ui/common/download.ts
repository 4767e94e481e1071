/**
 * Saves text as a file through the browser's download: a Blob behind a temporary object URL,
 * clicked through a temporary <a download>.
 */
export function downloadText(text: string, fileName: string, mediaType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mediaType }));
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
