/** What other modules and the app use of the accounts; the rest stays inside the module. */
export { UsersRepository } from './repository';
export { registerUserRoutes } from './routes';
export { UsersService } from './service';
export { toUser, type UserRow } from './user';
export { usernameKey } from './username-key';
