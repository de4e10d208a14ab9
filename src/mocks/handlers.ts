import { amiHandlers } from './handlers/ami';
import { authHandlers } from './handlers/auth';
import { instanceHandlers } from './handlers/instances';
import { liveHandlers } from './handlers/live';
import { userHandlers } from './handlers/users';

/** Every mock, per resource. Add a resource's handlers here (one line each). */
export const handlers = [...authHandlers, ...userHandlers, ...liveHandlers, ...instanceHandlers, ...amiHandlers];
