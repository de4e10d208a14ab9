import { format } from 'date-fns';

/** `recording-configs-20260109-1130.json`: the generated file's name, by the local time it was made. */
export function configFileName(now: Date = new Date()): string {
  return `recording-configs-${format(now, 'yyyyMMdd-HHmm')}.json`;
}

/** Offers `data` as a JSON file: a Blob behind an object URL, clicked through a temporary <a download>. */
export function downloadJson(fileName: string, data: unknown): void {
  const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the URL is released a little later.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
