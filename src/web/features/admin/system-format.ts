/** "512 MB", "12.4 GB": sizes as the System tab shows them (1024-based, en-IN digits). */
export function formatBytes(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toLocaleString('en-IN', { maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0 })} ${units[unit]}`;
}

/** "3 d 4 h", "2 h 5 min", "40 s". */
export function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${Math.max(0, Math.floor(seconds))} s`;
}

/** "Chrome 131 on Windows" from a user agent; the full text stays in the cell's title. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return '—';
  const pick = (re: RegExp) => re.exec(userAgent)?.[1];
  const browser =
    (pick(/Edg\/(\d+)/) && `Edge ${pick(/Edg\/(\d+)/)}`) ||
    (pick(/Firefox\/(\d+)/) && `Firefox ${pick(/Firefox\/(\d+)/)}`) ||
    (pick(/(?:Chrome|CriOS)\/(\d+)/) && `Chrome ${pick(/(?:Chrome|CriOS)\/(\d+)/)}`) ||
    (pick(/Version\/(\d+)[\d.]* .*Safari/) && `Safari ${pick(/Version\/(\d+)[\d.]* .*Safari/)}`) ||
    null;
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (!browser) return userAgent.length > 40 ? `${userAgent.slice(0, 39)}…` : userAgent;
  return os ? `${browser} on ${os}` : browser;
}
