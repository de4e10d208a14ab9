/** What other modules and the app use of the live feed; the rest stays inside the module. */
export { LIVE_SOCKET_HARD_LIMIT } from './connection';
export { LiveEventLog } from './event-log';
export { LiveFeed } from './feed';
export { LiveHub, type LiveClient } from './hub';
export { registerLiveRoutes } from './routes';
export { LiveSocketSlots } from './socket-slots';
