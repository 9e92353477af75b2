/** Hands a downloaded file to the browser's save dialog. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click returns; let go of it a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
