import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Cards other features add to Settings, below the school's details: put together here so the
 * settings feature does not import them (as with the dashboard panels).
 */
export const SETTINGS_CARDS: ReadonlyArray<LazyExoticComponent<ComponentType>> = [
  // whole-school data export (ruling 25)
  lazy(() => import('@/web/features/exports/export-card').then((m) => ({ default: m.ExportCard }))),
];
