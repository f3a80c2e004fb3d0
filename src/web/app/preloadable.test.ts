import { createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { unlessJustFetched } from '@/web/lib/query-client';
import { preloadable } from './preloadable';

const Greeting = ({ name }: { name: string }) => createElement('p', null, `Fees of ${name}`);
const inSuspense = (node: ReturnType<typeof createElement>) => createElement(Suspense, { fallback: createElement('span', null, 'Loading') }, node);

describe('preloadable', () => {
  it('shows the fallback while its code has not arrived, as React.lazy does', () => {
    const Slot = preloadable(() => new Promise<typeof Greeting>(() => {}));
    expect(renderToString(inSuspense(createElement(Slot, { name: 'Aarav' })))).toContain('Loading');
  });

  it('renders whole on the first render once the route loader has preloaded it', async () => {
    let loads = 0;
    const Slot = preloadable(async () => {
      loads += 1;
      return Greeting;
    });
    await Slot.preload();
    await Slot.preload();
    const html = renderToString(inSuspense(createElement(Slot, { name: 'Aarav' })));
    expect(html).toContain('Fees of Aarav');
    expect(html).not.toContain('Loading');
    expect(loads).toBe(1);
  });

  it('a failed preload does not throw: the render shows the error where the screen is', async () => {
    const Slot = preloadable(() => Promise.reject(new Error('chunk gone')));
    await expect(Slot.preload()).resolves.toBeUndefined();
  });
});

describe('unlessJustFetched', () => {
  it('does not ask again for an answer the loader fetched a moment ago, and does for an older one', () => {
    expect(unlessJustFetched({ state: { dataUpdatedAt: Date.now() - 500 } })).toBe(false);
    expect(unlessJustFetched({ state: { dataUpdatedAt: Date.now() - 60_000 } })).toBe(true);
  });
});
