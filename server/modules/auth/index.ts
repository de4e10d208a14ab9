/** What other modules and the app use of sign-in and sessions; the rest stays inside the module. */
export { AuthService } from './auth-service';
export { registerAuthRoutes } from './routes';
export { SessionService } from './session-service';
export { SessionsRepository } from './sessions-repository';
export { SessionTokens } from './tokens';
