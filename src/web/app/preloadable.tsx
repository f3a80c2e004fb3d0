import { lazy, type ComponentType } from 'react';

/** A lazy component whose code can be fetched ahead (from a route loader) and, once fetched, renders without suspending. */
export type Preloadable<P> = ComponentType<P> & { preload(): Promise<void> };

/**
 * Like React.lazy, with `preload()`. React.lazy suspends on its first render even when the module
 * has already arrived (its promise settles a microtask later), which costs a fallback commit and a
 * second render of the boundary. A route loader that preloads a screen's pieces beside its chunk
 * lets the screen render once, whole (decision 0044). Before the module arrives it behaves as
 * React.lazy: the nearest Suspense shows its fallback.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const start = () =>
    (pending ??= load().then((component) => {
      loaded = component;
      return { default: component };
    }));
  const Lazy = lazy(start);
  function PreloadableComponent(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  // a failed preload is left to the render, where the route's error boundary shows it
  return Object.assign(PreloadableComponent, { preload: () => start().then(() => undefined, () => undefined) });
}
