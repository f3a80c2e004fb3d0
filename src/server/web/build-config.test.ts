import { describe, expect, it } from 'vitest';
import viteConfig, { routePreloads } from '../../../vite.config';

describe('the production build of the web app', () => {
  it('writes compressed copies of its files as a step of every build (decision 0067)', () => {
    const names = (viteConfig.plugins ?? []).flat().map((p) => (p && typeof p === 'object' && 'name' in p ? p.name : ''));
    expect(names).toContain('school-ledger:precompress');
  });

  it('preloads the first screen from index.html, and nothing but stylesheets ahead of a lazy route (decision 0068)', () => {
    const preload = viteConfig.build?.modulePreload;
    expect(preload && typeof preload === 'object' ? preload.resolveDependencies : undefined).toBe(routePreloads);
    const deps = ['assets/students-tab-Ab12Cd34.js', 'assets/button-Ef56Gh78.js', 'assets/charts-Ij90Kl12.css'];
    expect(routePreloads('assets/index-Mn34Op56.js', deps, { hostType: 'html' })).toEqual(deps);
    expect(routePreloads('assets/dashboard-page-Qr78St90.js', deps, { hostType: 'js' })).toEqual(['assets/charts-Ij90Kl12.css']);
  });
});
