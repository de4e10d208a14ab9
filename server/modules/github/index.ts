/** What other modules and the app use of the GitHub settings; the rest stays inside the module. */
export { OctokitGithubApi } from './github-api';
export { registerGithubRoutes } from './routes';
export { GithubService } from './service';
export { SettingsRepository } from './settings-repository';
