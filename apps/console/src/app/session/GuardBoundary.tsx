import { Component, type ErrorInfo, type ReactNode } from 'react';
import { GuardError } from './GuardError';

interface State {
  failed: boolean;
}

/**
 * SPEC.md section 8, "Generic guard error: Has Error": an exception while the signed-in screens
 * resolve the account's roles and routes (or load their code) shows that text with a way out,
 * never a blank page. "Try again" renders the children afresh.
 */
export class GuardBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('route guard failed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.failed) return <GuardError retry={() => this.setState({ failed: false })} />;
    return this.props.children;
  }
}
