import type { TestProject } from 'vitest/node';
import { launchBrowserServer } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** WebSocket endpoint of the Chromium shared by every journey of the run. */
    browserEndpoint: string;
  }
}

// Starting Chromium costs seconds on a loaded machine: the journeys share one, each in its own contexts.
export default async function startSharedBrowser(project: TestProject): Promise<() => Promise<void>> {
  const server = await launchBrowserServer();
  project.provide('browserEndpoint', server.wsEndpoint());
  return () => server.close();
}
