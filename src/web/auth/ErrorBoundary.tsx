// Catches unexpected render failures (including a dashboard chunk that fails to load) and shows the authentication error screen.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AuthErrorScreen } from './screens';

export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('AdminEase failed to render', error, info.componentStack);
  }

  render(): ReactNode {
    return this.state.failed ? <AuthErrorScreen /> : this.props.children;
  }
}
