import type { AppInstance } from './fastify';

/**
 * The one shape of a server module (docs/architecture.md, "Server modules"): `create…Module(deps)` takes
 * its slice of the settings and the services it uses, and returns its service, what it adds to the app,
 * and what it does when the app is ready (`start`) and before the app closes (`close`); buildApp
 * registers every module and its hooks in one loop.
 */
export interface ServerModule<Service> {
  service: Service;
  /** Routes, and hooks that belong to them (added once, before the app is ready). */
  register(app: AppInstance): void | Promise<void>;
  start?(): void | Promise<void>;
  close?(): void | Promise<void>;
}
