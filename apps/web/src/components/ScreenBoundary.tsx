import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorState } from './states';

/**
 * A screen that fails to draw, or whose code cannot be downloaded (a phone gone offline on its way to a
 * screen it had not opened yet), shows the error state with a retry instead of blanking the whole app.
 * A screen's code that failed to load stays failed until the page loads again, so retry reloads it.
 */
export class ScreenBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('screen failed to draw', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="screen">
        <ErrorState onRetry={() => window.location.reload()} />
      </div>
    );
  }
}
