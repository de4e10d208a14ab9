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
  resetKey: unknown;
}

/** Catches a page whose code could not be loaded and shows why in its place; other errors pass through. */
export class ChunkErrorBoundary extends Component<ChunkErrorBoundaryProps, ChunkErrorBoundaryState> {
  state: ChunkErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ChunkErrorBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: ChunkErrorBoundaryProps, state: ChunkErrorBoundaryState): Partial<ChunkErrorBoundaryState> | null {
    if (props.resetKey === state.resetKey) return null;
    retryFailedChunks();
    return { error: null, resetKey: props.resetKey };
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
