/**
 * Screenshots of pages at 1280 px and 375 px, light and dark, for looking at what was built:
 *   npx tsx scripts/screenshot.ts http://localhost:5000/login [more urls] [--token T] [--out DIR] [--wait MS]
 * With --token the token is stored as auth_token first, so signed-in pages can be shot.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS } from '../e2e/browser';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { token: { type: 'string' }, out: { type: 'string', default: 'screenshots' }, wait: { type: 'string', default: '600' }, full: { type: 'boolean', default: true } },
});
const executablePath = chromiumPath();
if (!executablePath) throw new Error('No Chromium found (apt-get install chromium)');
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
mkdirSync(values.out!, { recursive: true });
for (const url of positionals) {
  for (const width of [1280, 375]) {
    for (const theme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width, height: width === 375 ? 812 : 900 } });
      await page.goto(new URL('/favicon.svg', url).toString());
      await page.evaluate(
        ([t, token]) => {
          localStorage.setItem('theme', t!);
          if (token) localStorage.setItem('auth_token', token);
        },
        [theme, values.token ?? ''],
      );
      // 'load', not 'networkidle': screens that poll (UPI pending count, export progress) never go quiet
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForTimeout(Number(values.wait));
      const { pathname, search } = new URL(url);
      const name = `${`${pathname}${search}`.replace(/\W+/g, '_').replace(/^_|_$/g, '') || 'root'}-${width}-${theme}.png`;
      await page.screenshot({ path: path.join(values.out!, name), fullPage: values.full });
      console.log(path.join(values.out!, name));
      await page.close();
    }
  }
}
await browser.close();
