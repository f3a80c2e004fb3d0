import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from './ui/button';

/** The render-failure screen (platform §2): Something went wrong, Refresh Page, details. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Render failure', error, info.componentStack);
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return <ErrorScreen error={this.state.error} />;
  }
}

export function ErrorScreen({ error }: { error: unknown }) {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return (
    <div className="flex min-h-dvh items-center justify-center p-6">
      <div className="w-full max-w-md space-y-4 rounded-xl border bg-card p-6 text-center shadow-sm">
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="text-sm text-muted-foreground">The page could not be shown. Refreshing usually helps; your saved data is safe.</p>
        <Button onClick={() => window.location.reload()}>Refresh Page</Button>
        <details className="text-left text-xs text-muted-foreground">
          <summary className="cursor-pointer">Error details</summary>
          <pre className="mt-2 whitespace-pre-wrap break-words">{message}</pre>
        </details>
      </div>
    </div>
  );
}
