/**
 * Printing (operations §2, §9): a new window with only the document, the app's own stylesheets,
 * and A4 landscape pages with 10 mm margins. The opener calls print() because the content
 * security policy allows no inline script in the new window.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const PRINT_PAGE_CSS = `
@page { size: A4 landscape; margin: 10mm; }
html, body { background: #ffffff !important; color: #0f172a; margin: 0; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.print-sheet { break-after: page; page-break-after: always; }
.print-sheet:last-child { break-after: auto; page-break-after: auto; }
@media screen { body { padding: 16px; } }
`;

export function openPrintWindow({ title, html }: { title: string; html: string }): Window | null {
  const win = window.open('', '_blank', 'width=1200,height=850');
  if (!win) return null;
  const links = Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'))
    .map((l) => `<link rel="stylesheet" href="${escapeHtml(l.href)}">`)
    .join('');
  const inline = Array.from(document.querySelectorAll('style'))
    .map((s) => s.outerHTML)
    .join('');
  win.document.open();
  win.document.write(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${links}${inline}<style>${PRINT_PAGE_CSS}</style></head><body>${html}</body></html>`,
  );
  win.document.close();
  const print = () => {
    win.focus();
    win.print();
  };
  // wait for the stylesheets so the page does not print unstyled
  if (win.document.readyState === 'complete') setTimeout(print, 250);
  else win.addEventListener('load', () => setTimeout(print, 100), { once: true });
  return win;
}
