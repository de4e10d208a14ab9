/** What other modules and the app use of the activity log; the rest stays inside the module. */
export { ActivityRepository } from './repository';
export { registerActivityRoutes } from './routes';
export { ActivityService, type ActivityActor, type ActivityInput } from './service';
export { recordFailedLogin, recordSelfAction, recordUserCreated, recordUserUpdated } from './user-activity';
