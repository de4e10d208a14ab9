/** What other modules and the app use of the mosque list; the rest stays inside the module. */
export { MosquesRepository } from './repository';
export { registerMosqueRoutes } from './routes';
export { MosquesService } from './service';
export { mosquesSummary } from './summary';
