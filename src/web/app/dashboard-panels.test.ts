import { describe, expect, it } from 'vitest';
import { DEFAULT_TAB } from '@/web/features/dashboard/tabs';
import { DEFAULT_PANEL } from './dashboard-panels';

describe('dashboard panels', () => {
  it('preloads the tab the dashboard opens by default', () => {
    expect(DEFAULT_PANEL).toBe(DEFAULT_TAB);
  });
});
