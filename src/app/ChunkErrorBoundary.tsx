import { Component, type ReactNode } from 'react';
import { ChunkLoadError, retryFailedChunks } from './recoverable-lazy';
import { ServerUnreachable } from './ServerUnreachable';

interface ChunkErrorBoundaryProps {
  children: ReactNode;
  /** A change (e.g. the path) clears the error, so navigating away tries the next page. */
  resetKey?: unknown;
}

interface ChunkErrorBoundaryState {
  error: unknown;
}

/** Catches a page whose code could not be loaded and shows why in its place; other errors pass through. */
export class ChunkErrorBoundary extends Component<ChunkErrorBoundaryProps, ChunkErrorBoundaryState> {
  state: ChunkErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ChunkErrorBoundaryState {
    return { error };
  }

  componentDidUpdate(previousProps: ChunkErrorBoundaryProps, previousState: ChunkErrorBoundaryState): void {
    // Only an error that was already shown before the key changed is cleared: the navigation that failed
    // changes the key in the same update that catches its error.
    if (previousState.error !== null && this.state.error !== null && previousProps.resetKey !== this.props.resetKey) {
      this.recover();
    }
  }

  private readonly recover = () => {
    retryFailedChunks();
    this.setState({ error: null });
  };

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    // Not ours: hand it on to the next boundary up.
    if (!(error instanceof ChunkLoadError)) throw error;
    return <ServerUnreachable failure={error.failure} onRecovered={this.recover} />;
  }
}
